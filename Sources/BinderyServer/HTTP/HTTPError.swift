import Bindery
import Foundation

/// An error answered as JSON `{"error": "<code>", "message": "<text>"}` with its status.
struct HTTPError: Error, Sendable {
    /// The HTTP status code.
    let status: Int
    /// A stable machine-readable code.
    let code: String
    /// What went wrong, for a person.
    let message: String
    /// Extra headers (`Allow` for 405).
    var headers: [(String, String)] = []

    /// 404 for a path the API does not have.
    static func notFound(_ message: String) -> HTTPError { HTTPError(status: 404, code: "not_found", message: message) }

    /// 405 listing the methods `allowed`.
    static func methodNotAllowed(_ method: String, allowed: [String]) -> HTTPError {
        HTTPError(
            status: 405, code: "method_not_allowed",
            message: "\(method) is not allowed here; allowed: \(allowed.joined(separator: ", "))",
            headers: [("Allow", allowed.joined(separator: ", "))])
    }

    /// The status and code of a runtime error.
    init(_ error: BinderyError) {
        switch error.code {
        case .unknownViewModel, .unknownSession, .unknownInput, .unknownOutput, .retired: status = 404
        case .malformedJSON, .invalidPayload: status = 400
        case .limitReached, .storeUnavailable: status = 503
        case .tooManySessions: status = 429
        case .answerTimeout: status = 504
        default: status = 500
        }
        // A session let go as the request reached it is looked for again; if it still leaks out, it is not there.
        code = error.code == .retired ? BinderyError.Code.unknownSession.rawValue : error.code.rawValue
        message = error.message
    }

    init(status: Int, code: String, message: String, headers: [(String, String)] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    /// The response for any error a route or the runtime throws; anything unknown is a 500.
    static func response(for error: Error) -> Response {
        switch error {
        case let error as HTTPError: return error.response
        case let error as BinderyError: return HTTPError(error).response
        default: return HTTPError(status: 500, code: "internal_error", message: "\(error)").response
        }
    }

    /// The error as a JSON response that closes the connection (the request was not read to its end, or the server stops).
    var closing: Response {
        var response = self.response
        response.headers.append(("Connection", "close"))
        return response
    }

    /// The error as a JSON response.
    var response: Response { .json(body, status: status, headers: headers) }

    /// `{"error": "<code>", "message": "<text>"}`.
    var body: Data { (try? JSONEncoder.bindery.encode(["error": code, "message": message])) ?? Data() }
}
