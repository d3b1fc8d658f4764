/// A request path as logs and metrics name it: the session id replaced by
/// `{sid}`, so that lines of one route look alike.
struct Route {
    let template: String
    let session: String?
    let input: (viewModel: String, name: String)?

    init(_ path: String) {
        // Split on bytes: splitting Characters costs ten times more, on every request.
        let parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        guard parts.count >= 3, parts[0].elementsEqual("api".utf8) else {
            (template, session, input) = (path, nil, nil)
            return
        }
        let viewModel = String(Substring(parts[1]))
        session = String(Substring(parts[2]))
        var template = "/api/" + viewModel + "/{sid}"
        for part in parts.dropFirst(3) { template += "/" + String(Substring(part)) }
        self.template = template
        input = parts.count == 5 && parts[3].elementsEqual("inputs".utf8) ? (viewModel, String(Substring(parts[4]))) : nil
    }
}
