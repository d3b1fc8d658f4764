import Bindery
import Foundation

/// An error answered as JSON `{"error": "<code>", "message": "<text>"}` with
/// its status, and `"applied": true|false` where an input's answer knows it.
struct HTTPError: Error, Sendable {
    /// The HTTP status code.
    let status: Int
    /// A stable machine-readable code.
    let code: String
    /// What went wrong, for a person.
    let message: String
    /// Extra headers (`Allow` for 405, `Retry-After`).
    var headers: [(String, String)] = []
    /// Whether the input this answers was applied, where that is known and matters.
    var applied: Bool?

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
        case .idempotencyKeyReused: status = 422
        case .unauthenticated: status = 401
        case .forbidden: status = 403
        case .tooManyAttempts:
            status = 429
            headers = [("Retry-After", String(max(1, error.retryAfter ?? 1)))]
        case .limitReached:
            status = 503
            headers = [("Retry-After", "1")]
        case .storeUnavailable:
            status = 503
            headers = [("Retry-After", String(Self.databaseRetrySeconds))]
        case .tooManySessions: status = 429
        case .answerTimeout: status = 504
        case .databaseUnavailable:
            status = 503
            headers = [("Retry-After", String(Self.databaseRetrySeconds))]
        case .storageFull:
            status = 507
            headers = [("Retry-After", String(Self.storageRetrySeconds))]
        default: status = 500
        }
        // A session let go as the request reached it is looked for again; if it still leaks out, it is not there.
        code = error.code == .retired ? BinderyError.Code.unknownSession.rawValue : error.code.rawValue
        message = error.message
        applied = error.applied
    }

    /// `Retry-After` of 503 `database_unavailable`: a database restarting is back in seconds.
    static let databaseRetrySeconds = 2
    /// `Retry-After` of 507 `storage_full`: space comes back when someone makes it.
    static let storageRetrySeconds = 30

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
        // Never its words: they may be a database's.
        default: return HTTPError(status: 500, code: "internal_error", message: "the server failed to answer").response
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

    /// `{"error": "<code>", "message": "<text>"}`, with `"applied"` if known.
    var body: Data { (try? JSONEncoder.bindery.encode(Body(error: code, message: message, applied: applied))) ?? Data() }

    private struct Body: Encodable {
        let error: String
        let message: String
        let applied: Bool?
    }
}
