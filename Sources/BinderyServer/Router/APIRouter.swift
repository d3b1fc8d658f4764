import Bindery
import Foundation

/// Protocol v1: maps each route to the runtime (DESIGN §5).
///
/// `/api` catalog · `/api/openapi.json` · `/api/<vm>` create ·
/// `/api/<vm>/<sid>` snapshot, stream, dispose · `/api/<vm>/<sid>/events` ·
/// `/api/<vm>/<sid>/outputs/<name>` · `/api/<vm>/<sid>/inputs/<name>`.
struct APIRouter {
    let application: Application
    let streams: StreamAdmission
    let configuration: ServerConfiguration

    func respond(to request: Request, segments: ArraySlice<Substring>) throws -> Response {
        let path = segments.map(String.init)
        // /api/<vm>/<sid>/…: the session the route is about.
        func session() throws -> Session { try application.session(path[0], id: path[1]) }

        switch path.count {
        case 0:
            try allow(request, ["GET"])
            return .json(application.catalog().json)
        case 1 where path[0] == "openapi.json":
            try allow(request, ["GET"])
            return .json(OpenAPI.document(for: application.catalog()))
        case 1:
            guard application.isRegistered(path[0]) else {
                throw HTTPError(BinderyError(.unknownViewModel, "no ViewModel named '\(path[0])'"))
            }
            try allow(request, ["POST"])
            try checkWrite(request)
            let created = try application.createSession(path[0], parameters: request.body)
            let location = "/api/\(created.viewModelName)/\(created.id)"
            return .json(try created.snapshot().json, status: 201, headers: [("Location", location)])
        case 2:
            try allow(request, ["GET", "DELETE"])
            if request.method == "DELETE" {
                try checkWrite(request)
                try application.disposeSession(path[0], id: path[1])
                return .empty(status: 204)
            }
            let session = try session()
            return request.wantsEventStream ? try stream(session, request) : .json(try session.snapshot().json)
        case 3 where path[2] == "events":
            try allow(request, ["GET"])
            return try stream(try session(), request)
        case 4 where path[2] == "outputs":
            try allow(request, ["GET"])
            guard let value = try session().value(ofOutput: path[3]) else {
                throw HTTPError(status: 404, code: "no_value", message: "output '\(path[3])' has no value yet")
            }
            return .json(value)
        case 4 where path[2] == "inputs":
            try allow(request, ["POST"])
            let session = try session()
            try checkWrite(request)
            try checkJSONBody(request)
            return .json(try session.send(input: path[3], payload: request.body).json)
        default:
            throw HTTPError.notFound("no API route \(request.path)")
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

    private func stream(_ session: Session, _ request: Request) throws -> Response {
        // The header is what EventSource sends on its own reconnects; the query
        // argument lets a client that opens a new EventSource resume too.
        let lastEventID = (request.header("Last-Event-ID") ?? request.query["lastEventId"])
            .flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
        guard streams.admit() else {
            throw HTTPError(status: 503, code: "limit_reached", message: "the server already has \(configuration.maxStreams) streams open")
        }
        let stream = EventStream(maxBufferedBytes: configuration.runtime.streamBufferBytes)
        do {
            try session.attach(stream, lastEventID: lastEventID)
        } catch {
            streams.release()
            throw error
        }
        return .eventStream(stream) { [streams] in
            session.detach(stream)
            streams.release()
        }
    }
}
