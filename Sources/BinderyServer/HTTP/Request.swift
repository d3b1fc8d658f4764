import Bindery
import Foundation

/// One HTTP request as the router sees it: method, path, headers and the whole body.
struct Request: Sendable {
    /// The method, upper case (`GET`, `POST`, …).
    let method: String
    /// The path without the query string, percent-decoded by libmicrohttpd.
    let path: String
    /// The protocol version of the request line (`HTTP/1.1`).
    var version = "HTTP/1.1"
    /// Header values by lower-cased name (the first, if one came more than once).
    var headers: [String: String]
    /// The lower-cased names of headers in `headers` that came more than once.
    var repeatedHeaders: [String] = []
    /// The body (empty if none).
    let body: Data
    /// Query-string arguments by name: for `/api/…` those of `queryNames`, for anything else every one.
    var query: [String: String] = [:]
    /// The address of the socket's peer (a proxy's, behind one).
    var peer = "127.0.0.1"
    /// Who sent it, and how: set by `EdgePolicy` before the routes see it.
    var provenance = Provenance(client: "127.0.0.1", scheme: "http")
    /// The browser's token from its cookie (`BrowserCookie`), if it carries a valid one.
    var browser: String?
    /// Who asks, as the app's authentication said (nil: no authentication, or anonymous).
    var identity: Identity?
    /// The browser's sign-in token from its cookie (`SignIns`), if it sent one.
    var signInToken: String?
    /// The token of the file its body was, for an upload input (`UploadedFiles`); its `body` is then empty.
    var upload: String?
    /// Every header and cookie, for the app's authentication; only gathered when the app has one.
    var everything: (headers: [String: String], cookies: [String: String])?
    /// The path's segments, without empty ones.
    let segments: [String]
    /// The `/api` route the path names, matched once (routing, logs and metrics read it).
    let apiRoute: APIRoute.Match?

    init(method: String, path: String, headers: [String: String], body: Data, query: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.query = query
        segments = PathSegments.of(path)
        apiRoute = segments.first == "api" ? APIRoute.match(segments.dropFirst()) : nil
    }

    /// The headers a route or the edge reads, in lower case: only these are kept.
    static let headerNames: [StaticString] = [
        "accept", "accept-encoding", "authorization", "content-type", "host", "idempotency-key", "if-none-match", "last-event-id", "origin",
        "sec-fetch-site", "x-bindery-session-id", "x-forwarded-for", "x-forwarded-proto",
    ]
    /// `headerNames` as the keys of `headers`.
    static let headerKeys = headerNames.map(\.description)
    /// The query arguments a route reads.
    static let queryNames = ["lastEventId", "sessions"]

    /// The value of header `name`, given in lower case as `headerNames` has it.
    func header(_ name: String) -> String? { headers[name] }

    /// Whether the client asks for an event stream rather than JSON.
    var wantsEventStream: Bool {
        guard let accept = header("accept") else { return false }
        return accept.lowercased().contains("text/event-stream")
    }

    /// Whether a browser asks for a page: a `GET` whose `Accept` names HTML (a
    /// fetch or curl sends `*/*`, and gets the JSON error).
    var wantsPage: Bool {
        (method == "GET" || method == "HEAD") && header("accept")?.lowercased().contains("text/html") == true
    }

    /// Whether the method changes something (only these need a same-origin page).
    var isWrite: Bool { method != "GET" && method != "HEAD" && method != "OPTIONS" }
}

/// Who sent a request and over what: the socket's peer, or behind a trusted
/// proxy the client it names (`X-Forwarded-For`, `X-Forwarded-Proto`).
struct Provenance: Sendable, Equatable {
    /// The client's address: what per-client limits count by.
    let client: String
    /// `http`, or `https` when a trusted proxy says the client used it.
    let scheme: String
    /// Whether the socket's peer is a trusted proxy.
    var isTrustedProxy = false
}
