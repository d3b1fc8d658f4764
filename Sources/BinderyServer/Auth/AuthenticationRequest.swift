/// What an app's authentication sees of a request (`BinderyApp.authenticate`):
/// its method, path, headers, cookies and client.
public struct AuthenticationRequest: Sendable {
    /// The method, upper case.
    public let method: String
    /// The path, without the query string.
    public let path: String
    /// The client's address (behind a trusted proxy, the client it names).
    public let client: String
    private let headers: [String: String]
    private let cookies: [String: String]

    init(method: String, path: String, client: String, headers: [String: String], cookies: [String: String]) {
        self.method = method
        self.path = path
        self.client = client
        self.headers = headers
        self.cookies = cookies
    }

    /// The value of header `name` (any case), or nil.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The value of cookie `name`, or nil.
    public func cookie(_ name: String) -> String? { cookies[name] }
}
