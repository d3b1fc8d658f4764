/// What an app's authentication throws to refuse a request: 401 (who are
/// you?) or 403 (not you), answered as JSON with `message`.
public struct AuthenticationError: Error, Sendable {
    /// 401 or 403.
    public let status: Int
    /// Why, for the person or program that asked.
    public let message: String

    /// 401 `unauthenticated`: the request says nobody, or nobody the app knows.
    public static func unauthenticated(_ message: String) -> AuthenticationError {
        AuthenticationError(status: 401, message: message)
    }

    /// 403 `forbidden`: the app knows who asks, and they may not.
    public static func forbidden(_ message: String) -> AuthenticationError {
        AuthenticationError(status: 403, message: message)
    }

    var httpError: HTTPError {
        HTTPError(status: status, code: status == 401 ? "unauthenticated" : "forbidden", message: message)
    }
}
