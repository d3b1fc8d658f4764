/// Why an event stream ended: the reason its log line and its counter give.
enum StreamEnding: String, CaseIterable, Sendable {
    /// The client went away (closed its tab, lost its network).
    case clientLeft = "client_left"
    /// It fell more than the buffer behind; the client resumes by `Last-Event-ID`.
    case overflow
    /// Its session was disposed (`bindery.end`).
    case sessionEnded = "session_ended"
    /// The server stops.
    case shutdown
    /// Its client took nothing for the stalled-stream timeout while events waited (`--stalled-stream-timeout`).
    case stalled
}
