import Logging

/// The runtime's limits and timings; every one is explicit and configurable.
public struct RuntimeConfiguration: Sendable {
    /// Most sessions alive at once; creating more answers `limit_reached`.
    public var maxSessions = 10_000
    /// Most sessions made for one client (`createSession`'s `client`) alive at
    /// once, children it navigated to included; more answer `too_many_sessions`.
    public var maxSessionsPerClient = 1_000
    /// Most streams one session feeds at once.
    public var maxStreamsPerSession = 1_000
    /// Events each session keeps for `Last-Event-ID` resume.
    public var retainedEvents = 1_024
    /// Unwritten bytes a stream may hold before it is closed as too slow.
    public var streamBufferBytes = 256 * 1024
    /// A session with no stream and no request for this long is disposed.
    public var sessionIdleTimeout: Duration = .seconds(600)
    /// A session nobody has streamed from or sent an input to since it was
    /// made is disposed after this long without a request: abandoned creates
    /// do not hold places for the whole idle timeout.
    public var unusedSessionTimeout: Duration = .seconds(60)
    /// How often the sessions that changed are saved to the store, together
    /// (an app that keeps sessions): after `kill -9` a session has its state
    /// as of at most about this long before. A stop (SIGTERM) saves everything.
    public var sessionSaveInterval: Duration = .seconds(1)
    /// A stored session not asked for or streamed from for this long is deleted.
    public var storedSessionLifetime: Duration = .seconds(24 * 3600)
    /// In a cluster, how long a node's lease on a shared ViewModel lasts
    /// without being renewed (every second): how soon another node takes over
    /// from one that died, paused or lost its database.
    public var sharedSessionLease: Duration = .seconds(5)
    /// In a cluster, how long an input to a shared ViewModel waits for its
    /// owner's committed answer (or a request for its replica to be ready)
    /// before it is answered 503 `store_unavailable`: while no node owns it,
    /// from an owner's death until the lease runs out, and longer if no node
    /// can reach the database. The input may still apply later.
    public var sharedSessionAnswerTimeout: Duration = .seconds(15)
    /// How long an input's answer waits for the work that holds it
    /// (`AnswerHold`: the todo list's commit) before it is answered 504
    /// `answer_timeout`. The work goes on, and what it emits reaches the streams.
    public var heldAnswerTimeout: Duration = .seconds(30)
    /// How many of a session's most recent inputs sent with a client's key
    /// (`Idempotency-Key`) it remembers, with their answers: a repeat of one of
    /// them is answered as the first was and not applied again. Each costs
    /// about a hundred bytes, in memory and in the session's record.
    public var inputKeysPerSession = 256
    /// Most sessions the store keeps; beyond, those seen least recently are deleted.
    public var maxStoredSessions = 1_000_000
    /// Development only: each session keeps what it received and sent
    /// (`SessionTranscript`, at most 2,000 entries), so that it can be replayed
    /// as a test. Off in production: it costs memory per session and keeps payloads.
    public var recordsTranscripts = false
    /// Told of every ViewModel that fails as it runs (besides the log): a
    /// development server shows them in the app's pages. Called on the
    /// session's turn: it must return at once.
    public var reportsProblems: (@Sendable (ViewModelProblem) -> Void)?
    /// The threads sessions run on: shared by every session, bounded whatever the load.
    public var executors: ExecutorPool = .shared
    /// Where sessions created and disposed, and ViewModel failures, are logged
    /// (nowhere by default; a `BinderyApp` logs to standard error).
    public var logger = Logger(label: "bindery") { _ in SwiftLogNoOpLogHandler() }

    /// The defaults.
    public init() {}
}
