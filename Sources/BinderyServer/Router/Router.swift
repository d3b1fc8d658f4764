import Bindery
import Foundation

/// The first stop of every request: `/api/…` to the API, everything else to `Public/`;
/// every failure becomes a JSON error with its status.
struct Router: Sendable {
    let api: APIRouter
    let files: StaticFiles

    func respond(to request: Request) -> Answer {
        do {
            let segments = request.segments
            if segments.first == "api" {
                return try api.respond(to: request, segments: segments.dropFirst())
            }
            return .now(try files.respond(to: request))
        } catch {
            return .now(HTTPError.response(for: error))
        }
    }
}
