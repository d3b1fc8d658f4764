import Foundation

/// One HTTP request as the router sees it: method, path, headers and the whole body.
struct Request {
    /// The method, upper case (`GET`, `POST`, …).
    let method: String
    /// The path without the query string, percent-decoded by libmicrohttpd.
    let path: String
    /// Header values by lower-cased name.
    let headers: [String: String]
    /// The body (empty if none).
    let body: Data
    /// Query-string arguments by name.
    var query: [String: String] = [:]
    /// The path's segments, without empty ones.
    let segments: [String]

    init(method: String, path: String, headers: [String: String], body: Data, query: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.query = query
        segments = PathSegments.of(path)
    }

    /// The headers a route reads, by lower-cased name: only these are looked up.
    static let headerNames = ["accept", "content-type", "host", "if-none-match", "last-event-id", "origin"]
    /// The query arguments a route reads.
    static let queryNames = ["lastEventId", "sessions"]

    /// The value of header `name` (any case).
    func header(_ name: String) -> String? { headers[name.lowercased()] }


    /// Whether the client asks for an event stream rather than JSON.
    var wantsEventStream: Bool {
        guard let accept = header("Accept") else { return false }
        return accept.lowercased().contains("text/event-stream")
    }
}
