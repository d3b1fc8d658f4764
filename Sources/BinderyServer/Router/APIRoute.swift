/// Protocol v1's routes under `/api`, in the order a path is matched: the one table
/// the router dispatches by, the OpenAPI document describes, logs and `/metrics`
/// label requests by, and `docs/protocol.md` lists (`RouteTableTests` holds the
/// document to it).
enum APIRoute: CaseIterable, Sendable {
    case catalog, openAPI, streams, create, session, events, output, input, test

    /// A part of a route's path: a word as it is, or a parameter.
    enum Segment: Equatable, Sendable {
        case literal(String)
        case viewModel, session, port
    }

    /// The path after `/api`.
    var pattern: [Segment] {
        switch self {
        case .catalog: []
        case .openAPI: [.literal("openapi.json")]
        case .streams: [.literal(APIRouter.multiplexedStreams)]
        case .create: [.viewModel]
        case .session: [.viewModel, .session]
        case .events: [.viewModel, .session, .literal("events")]
        case .output: [.viewModel, .session, .literal("outputs"), .port]
        case .input: [.viewModel, .session, .literal("inputs"), .port]
        case .test: [.viewModel, .session, .literal("test.swift")]
        }
    }

    /// The methods it answers; `HEAD` goes with `GET`. A shared ViewModel's session
    /// has no `DELETE` (it is everyone's): the router says so with a 405 of its own.
    var methods: [String] {
        switch self {
        case .catalog, .openAPI, .streams, .events, .output, .test: ["GET"]
        case .create, .input: ["POST"]
        case .session: ["GET", "DELETE"]
        }
    }

    /// What each method answers when all is well, in the protocol document's words.
    var answers: [String: String] {
        switch self {
        case .catalog: ["GET": "200, the catalog"]
        case .openAPI: ["GET": "200, the OpenAPI 3.1 document of the running catalog"]
        case .streams: ["GET": "200, several sessions' streams on one connection"]
        case .create: ["POST": "201, a new session's snapshot; `Location: /api/<vm>/<sid>`"]
        case .session:
            [
                "GET": "200, the snapshot; an event stream if `Accept` contains `text/event-stream`",
                "DELETE": "204; the session is disposed (a shared ViewModel's: 405, it is everyone's)",
            ]
        case .events: ["GET": "200, the session's event stream"]
        case .output: ["GET": "200, a driver's current value; 204 before it has one"]
        case .input: ["POST": "200, the snapshot after the input"]
        case .test: ["GET": "200, the session as a Swift test (`--development` only; 404 otherwise)"]
        }
    }

    /// The error statuses it may answer besides 400 and 404 (the OpenAPI document's).
    var errorStatuses: [String: [Int]] {
        switch self {
        case .catalog, .openAPI, .output, .test: ["GET": []]
        case .streams, .events: ["GET": [503]]
        case .create: ["POST": [401, 403, 413, 415, 429, 503]]
        case .session: ["GET": [503], "DELETE": [403]]
        case .input: ["POST": [401, 403, 413, 415, 422, 503, 504, 507]]
        }
    }

    /// The path as the protocol document writes it: `/api/<vm>/<sid>/inputs/<name>`.
    var template: String {
        "/api"
            + pattern.map { segment in
                switch segment {
                case .literal(let word): "/\(word)"
                case .viewModel: "/<vm>"
                case .session: "/<sid>"
                case .port: "/<name>"
                }
            }.joined()
    }

    /// A path's route and the parameters it names.
    struct Match: Sendable {
        let route: APIRoute
        /// `<vm>`, `<sid>` and `<name>`, where the route has them.
        let viewModel: String?
        let session: String?
        let port: String?
    }

    /// The patterns by their length, made once: a request is matched against the
    /// routes of its path's length only, without making a pattern again.
    private static let byLength: [[(route: APIRoute, pattern: [Segment])]] = {
        let longest = allCases.map(\.pattern.count).max() ?? 0
        return (0...longest).map { length in allCases.filter { $0.pattern.count == length }.map { ($0, $0.pattern) } }
    }()

    /// The route `segments` (the path after `/api`, empty segments skipped) names, or nil.
    static func match(_ segments: ArraySlice<String>) -> Match? {
        guard segments.count < byLength.count else { return nil }
        routes: for (route, pattern) in byLength[segments.count] {
            var viewModel: String?
            var session: String?
            var port: String?
            var index = segments.startIndex
            for segment in pattern {
                let value = segments[index]
                index += 1
                switch segment {
                case .literal(let word): if value != word { continue routes }
                case .viewModel: viewModel = value
                case .session: session = value
                case .port: port = value
                }
            }
            return Match(route: route, viewModel: viewModel, session: session, port: port)
        }
        return nil
    }
}
