/// A request path as logs and metrics name it: the session id replaced by
/// `{sid}`, so that lines of one route look alike. Made from the segments the
/// router split, so a request's path is split once.
struct RouteLabel {
    let path: String
    let segments: [String]

    init(_ path: String, segments: [String]) {
        self.path = path
        self.segments = segments
    }

    init(_ path: String) { self.init(path, segments: PathSegments.of(path)) }

    /// `/api/<vm>/<sid>/…`: a route about one session.
    private var isSessionRoute: Bool { segments.count >= 3 && segments[0] == "api" }

    /// The path with its session id as `{sid}`.
    var template: String {
        guard isSessionRoute else { return path }
        return (["", "api", segments[1], "{sid}"] + segments.dropFirst(3)).joined(separator: "/")
    }

    /// The session id of a session's route.
    var session: String? { isSessionRoute ? segments[2] : nil }

    /// The ViewModel of an input's path (`/api/<vm>/<sid>/inputs/<name>`, empty
    /// segments skipped as the router skips them), or nil for any other path.
    var inputViewModel: String? {
        guard segments.count == 5, segments[0] == "api", segments[3] == "inputs" else { return nil }
        return segments[1]
    }
}
