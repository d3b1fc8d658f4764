import CMicroHTTPD

/// The right to suspend and resume one libmicrohttpd connection, and whether
/// it sleeps: libmicrohttpd neither reads nor writes a suspended connection
/// until it is resumed, once.
///
/// There is one per connection, and it is never copied (`~Copyable`), so one
/// object at a time owns the connection's sleep. The `Connection` holds it,
/// under its lock, while a session makes an answer. While an event stream is
/// the answer, the `EventStream` holds it under its own lock: `attach` moves it
/// there and `detach` gives it back. A closed connection drops it, so nothing
/// resumes a connection libmicrohttpd has freed.
struct ConnectionSleep: ~Copyable {
    private let connection: OpaquePointer
    /// libmicrohttpd suspended the connection at our call, and it has not been resumed.
    private(set) var isAsleep = false

    /// The sleep of `connection`, awake.
    init(_ connection: OpaquePointer) {
        self.connection = connection
    }

    /// Suspends the connection: nothing is read from it or written to it until `resume`.
    mutating func suspend() {
        precondition(!isAsleep, "a connection suspended twice")
        isAsleep = true
        MHD_suspend_connection(connection)
    }

    /// Resumes the connection if it sleeps; whether it did.
    @discardableResult
    mutating func resume() -> Bool {
        guard isAsleep else { return false }
        isAsleep = false
        MHD_resume_connection(connection)
        return true
    }
}
