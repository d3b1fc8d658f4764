/// Why the edge turned a request or a connection away: the label of
/// `bindery_refusals_total`, so an operator sees an attack or a misconfigured
/// proxy by its reason.
enum Refusal: String, CaseIterable, Sendable {
    /// A NUL in the URL, or a control character in its path.
    case invalidURL = "invalid_url"
    /// HTTP/1.1 without `Host`, a `Host` that is not a host, or a header that must come once came twice.
    case malformedHeaders = "malformed_headers"
    /// A `Host` the server does not answer to (DNS rebinding).
    case hostNotAllowed = "host_not_allowed"
    /// A write from a page of another origin, or a browser that says the request is cross-site.
    case crossOrigin = "cross_origin"
    /// A session id or ViewModel name that cannot be one.
    case invalidSession = "invalid_session"
    /// The server had its most connections open.
    case connectionLimit = "connection_limit"
    /// The client had its most connections open.
    case clientConnectionLimit = "client_connection_limit"
    /// The request's headers did not arrive in time (a slow sender).
    case headerTimeout = "header_timeout"
    /// The request's body did not arrive in time.
    case bodyTimeout = "body_timeout"
    /// The client created sessions faster than its rate.
    case sessionRate = "session_rate"
    /// The client had its most live sessions.
    case clientSessionLimit = "client_session_limit"
    /// The app's authentication refused the request.
    case unauthenticated
}
