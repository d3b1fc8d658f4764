import Bindery
import Foundation

/// The first stop of every request: `/api/…` to the API, everything else to `Public/`;
/// every failure becomes a JSON error with its status.
struct Router {
    let api: APIRouter
    let files: StaticFiles

    func respond(to request: Request) -> Response {
        do {
            let segments = request.segments
            if segments.first == "api" {
                return try api.respond(to: request, segments: segments.dropFirst())
            }
            return try files.respond(to: request)
        } catch let error as HTTPError {
            return error.response
        } catch let error as BinderyError {
            return HTTPError(error).response
        } catch {
            return HTTPError(status: 500, code: "internal_error", message: "\(error)").response
        }
    }
}
