import Bindery
import Foundation

/// Protocol v1: maps each route to the runtime (DESIGN §5).
///
/// `/api` catalog · `/api/openapi.json` · `/api/<vm>` create ·
/// `/api/<vm>/<sid>` snapshot, stream, dispose · `/api/<vm>/<sid>/events` ·
/// `/api/<vm>/<sid>/outputs/<name>` · `/api/<vm>/<sid>/inputs/<name>`.
struct APIRouter: Sendable {
    let application: Application
    let streams: StreamAdmission
    let configuration: ServerConfiguration

    func respond(to request: Request, segments: ArraySlice<Substring>) throws -> Answer {
        let path = segments.map(String.init)
        // /api/<vm>/<sid>/…: the session the route is about.
        func session() throws -> Session { try application.session(path[0], id: path[1]) }

        switch path.count {
        case 0:
            try allow(request, ["GET"])
            return catalog { .json($0.json) }
        case 1 where path[0] == "openapi.json":
            try allow(request, ["GET"])
            return catalog { .json(OpenAPI.document(for: $0)) }
        case 1:
            let name = path[0]
            guard application.isRegistered(name) else {
                throw HTTPError(BinderyError(.unknownViewModel, "no ViewModel named '\(name)'"))
            }
            try allow(request, ["POST"])
            try checkWrite(request)
            try checkJSONBody(request)
            return .later { [application, body = request.body] reply in
                application.createSession(name, parameters: body) { created in
                    guard case .success(let session) = created else { return reply(Self.response(created)) }
                    session.snapshot { snapshot in
                        reply(Self.response(snapshot) { .json($0.json, status: 201, headers: [("Location", "/api/\(name)/\(session.id)")]) })
                    }
                }
            }
        case 2:
            try allow(request, ["GET", "DELETE"])
            if request.method == "DELETE" {
                try checkWrite(request)
                try application.disposeSession(path[0], id: path[1])
                return .now(.empty(status: 204))
            }
            let session = try session()
            if request.wantsEventStream { return try stream(session, request) }
            return .later { reply in session.snapshot { reply(Self.response($0) { .json($0.json) }) } }
        case 3 where path[2] == "events":
            try allow(request, ["GET"])
            return try stream(try session(), request)
        case 4 where path[2] == "outputs":
            try allow(request, ["GET"])
            let session = try session(), name = path[3]
            return .later { reply in
                session.value(ofOutput: name) { value in
                    reply(Self.response(value) { json in
                        guard let json else {
                            return HTTPError(status: 404, code: "no_value", message: "output '\(name)' has no value yet").response
                        }
                        return .json(json)
                    })
                }
            }
        case 4 where path[2] == "inputs":
            try allow(request, ["POST"])
            let session = try session(), name = path[3]
            try checkWrite(request)
            try checkJSONBody(request)
            return .later { [body = request.body] reply in
                session.send(input: name, payload: body) { reply(Self.response($0) { .json($0.json) }) }
            }
        default:
            throw HTTPError.notFound("no API route \(request.path)")
        }
    }

    /// The catalog, probed in a turn of its own the first time.
    private func catalog(_ response: @escaping @Sendable (Catalog) -> Response) -> Answer {
        .later { [application] reply in application.catalog { reply(response($0)) } }
    }

    /// The response for a runtime outcome: `success` for a value, the JSON error otherwise.
    private static func response<T>(_ result: Result<T, BinderyError>, success: (T) -> Response = { _ in .empty(status: 204) }) -> Response {
        switch result {
        case .success(let value): return success(value)
        case .failure(let error): return HTTPError(error).response
        }
    }

    private func allow(_ request: Request, _ methods: [String]) throws {
        let allowed = methods.contains("GET") ? methods + ["HEAD"] : methods
        guard allowed.contains(request.method) else { throw HTTPError.methodNotAllowed(request.method, allowed: allowed) }
    }

    /// Writes from another origin are refused (a page elsewhere must not drive sessions here).
    private func checkWrite(_ request: Request) throws {
        guard let origin = request.header("Origin") else { return }
        let authority = URL(string: origin).flatMap { url in url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } }
        guard let authority, authority == request.header("Host") else {
            throw HTTPError(status: 403, code: "cross_origin", message: "writes from origin \(origin) are not allowed")
        }
    }

    private func checkJSONBody(_ request: Request) throws {
        guard !request.body.isEmpty, let type = request.header("Content-Type") else { return }
        let mediaType = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard mediaType == "application/json" || mediaType.hasSuffix("+json") else {
            throw HTTPError(status: 415, code: "unsupported_media_type", message: "send the payload as JSON with Content-Type: application/json (got \(type))")
        }
    }

    private func stream(_ session: Session, _ request: Request) throws -> Answer {
        // The header is what EventSource sends on its own reconnects; the query
        // argument lets a client that opens a new EventSource resume too.
        let lastEventID = (request.header("Last-Event-ID") ?? request.query["lastEventId"])
            .flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
        guard let admission = streams.admit() else {
            throw HTTPError(status: 503, code: "limit_reached", message: "the server already has \(configuration.maxStreams) streams open")
        }
        let retry = configuration.runtime.retryMilliseconds
        return .later { reply in
            session.subscribe(lastEventID: lastEventID) { subscribed in
                switch subscribed {
                case .success(let subscription):
                    reply(.eventStream(EventStreamWriter(subscription: subscription, admission: admission, retryMilliseconds: retry)))
                case .failure(let error):
                    admission.release()
                    reply(HTTPError(error).response)
                }
            }
        }
    }
}
