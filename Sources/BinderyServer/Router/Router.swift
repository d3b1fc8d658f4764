import Bindery
import Foundation

/// The first stop of every request: `/api/…` to the API, everything else to `Public/`;
/// every failure becomes a JSON error with its status.
struct Router: Sendable {
    let api: APIRouter
    let files: StaticFiles
    let client: ClientFiles

    func respond(to request: Request) -> Answer {
        do {
            let segments = request.segments
            if segments.first == "api" {
                return try api.respond(to: request, segments: segments.dropFirst())
            }
            if segments.first == Substring(ClientFiles.prefix) {
                // The app's own copy of a client file wins.
                if let own = try files.file(for: request) { return .now(own) }
                return .now(try client.respond(to: request, path: segments.dropFirst()))
            }
            return .now(try files.respond(to: request))
        } catch {
            return .now(HTTPError.response(for: error))
        }
    }
}
