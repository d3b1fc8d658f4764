/// A request path as logs and metrics name it: the session id replaced by
/// `{sid}`, so that lines of one route look alike. Made from the segments the
/// router split, matched against the route table (`APIRoute`).
struct RouteLabel {
    let path: String
    private let match: APIRoute.Match?

    /// The label of a path whose `/api` route is `match` (a request's, matched once).
    init(_ path: String, match: APIRoute.Match?) {
        self.path = path
        self.match = match
    }

    init(_ path: String) {
        let segments = PathSegments.of(path)
        self.init(path, match: segments.first == "api" ? APIRoute.match(segments.dropFirst()) : nil)
    }

    /// The path with its session id as `{sid}`.
    var template: String {
        guard let match, let viewModel = match.viewModel, match.session != nil else { return path }
        return "/api/\(viewModel)/{sid}"
            + match.route.pattern.dropFirst(2).map { segment in
                switch segment {
                case .literal(let word): "/\(word)"
                case .port: "/\(match.port ?? "")"
                case .viewModel, .session: ""
                }
            }.joined()
    }

    /// The session id of a session's route.
    var session: String? { match?.session }

    /// The ViewModel of an input's path (`/api/<vm>/<sid>/inputs/<name>`, empty
    /// segments skipped as the router skips them), or nil for any other path.
    var inputViewModel: String? { match?.route == .input ? match?.viewModel : nil }
}
