/// What a route makes of a request: a response now, or one a session makes in
/// its turn. The server suspends the connection meanwhile; no thread waits.
enum Answer {
    /// The response, made on the spot (no session involved).
    case now(Response)
    /// Work that calls `reply` once, from wherever the response is ready.
    case later(@Sendable (_ reply: @escaping @Sendable (Response) -> Void) -> Void)
}
