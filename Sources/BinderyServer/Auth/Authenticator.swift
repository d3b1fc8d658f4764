import Bindery

/// An app's authentication: reads a request and returns who asks (nil:
/// someone anonymous, who may go on), or throws `AuthenticationError` to
/// refuse it. Runs for every `/api` request, off libmicrohttpd's threads, so
/// it may await a database or another service.
public typealias Authenticator = @Sendable (AuthenticationRequest) async throws -> Identity?
