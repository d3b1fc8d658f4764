/// A request path as logs and metrics name it: the session id replaced by
/// `{sid}`, so that lines of one route look alike.
struct Route {
    let template: String
    let session: String?

    init(_ path: String) {
        // Split on bytes: splitting Characters costs ten times more, on every request.
        let parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        guard parts.count >= 3, parts[0].elementsEqual("api".utf8) else {
            (template, session) = (path, nil)
            return
        }
        let viewModel = String(Substring(parts[1]))
        session = String(Substring(parts[2]))
        var template = "/api/" + viewModel + "/{sid}"
        for part in parts.dropFirst(3) { template += "/" + String(Substring(part)) }
        self.template = template
    }

    /// The ViewModel of an input's path (`/api/<vm>/<sid>/inputs/<name>`, empty
    /// segments skipped as the router skips them), or nil for any other path:
    /// what an input's metrics need, found without splitting the path into an
    /// array or building its template.
    static func inputViewModel(of path: String) -> Substring? {
        let bytes = path.utf8
        var index = bytes.startIndex
        /// The next non-empty segment, or nil at the end.
        func next() -> Range<String.Index>? {
            while index < bytes.endIndex, bytes[index] == UInt8(ascii: "/") { index = bytes.index(after: index) }
            let start = index
            while index < bytes.endIndex, bytes[index] != UInt8(ascii: "/") { index = bytes.index(after: index) }
            return index > start ? start..<index : nil
        }
        guard let api = next(), path[api] == "api", let viewModel = next(), next() != nil,
              let inputs = next(), path[inputs] == "inputs", next() != nil, next() == nil else { return nil }
        return path[viewModel]
    }
}
