import Bindery
import Foundation
import Logging
import Synchronization

/// A cluster's shared sessions (`register(…, shared: true)`): one instance of
/// each shared ViewModel serves the whole cluster at a time, and every node
/// answers from a replica of it.
///
/// - **One owner, by lease.** `bindery_lease` names the node that runs a
///   shared ViewModel and its epoch; the owner renews it every second and
///   another node takes it over once it has not been renewed for
///   `leaseTime` (a dead, paused or cut-off owner). The new owner makes the
///   ViewModel again from the state the last owner committed.
/// - **Inputs go to the owner through PostgreSQL.** A node appends each input
///   to the `ChangeLog` topic `input/<vm>`; the owner applies them in offset
///   order, whichever node they came through (its own included).
/// - **The owner's turns are committed before anyone sees them.** Its events,
///   the answers to the inputs it applied, how far it has applied them, and
///   its declared state go in one transaction, fenced by the lease (a stale
///   owner's commit fails: `SELECT … FOR UPDATE` of its lease row, same node,
///   same epoch, not expired), as one change of topic `shared/<vm>`. An input
///   is answered only once that change is committed: an acknowledged input
///   is never lost, and a new owner re-applies any input whose effects its
///   predecessor had not committed.
/// - **Every node's replica follows the committed changes** (the owner's
///   node too), with the owner's event ids, so `Last-Event-ID` means the same
///   on every node. A new owner's ids jump past the old ones and its first
///   change is a whole snapshot: streams start over with it (a reset).
///
/// Threading: the host's state is confined to `queue`, and each function that
/// touches it checks so in debug builds (`assertOnQueue`); PostgreSQL is waited
/// for only on `database`'s queue; sessions are reached through their turns.
///
/// Here its state and its life; a node's replicas in
/// `PostgresSharedSessions+Replicas.swift`, the owner's turns and their
/// commits in `PostgresSharedSessions+Owning.swift`. Its members are internal
/// (not private) so those files reach them; nothing outside this module does.
package final class PostgresSharedSessions: SharedSessionHost, @unchecked Sendable {
    let node: String
    let changes: ChangeLog
    weak var application: (any SharedSessionRuntime)?
    let database: PostgresDatabase
    let logger: Logger
    let leaseTime: Duration
    let answerTimeout: Duration
    let queue = DispatchQueue(label: "bindery.shared")
    let timer = Locked<DispatchSourceTimer?>(nil)
    /// Confined to `queue`.
    var viewModels: [String: SharedViewModel] = [:]

    /// One shared ViewModel as this node sees it; confined to `queue`.
    final class SharedViewModel: @unchecked Sendable {
        let name: String
        var replica: (any ReplicaSession)?
        var replicaEpoch: Int64 = 0
        var isReady = false
        var isLoading = false
        /// Requests for the replica's id, once it is ready.
        var waiting: [@Sendable (Result<String, BinderyError>) -> Void] = []
        /// Inputs sent from this node, waiting for their answers, by the request id each carries
        /// (known before it is sent, so no answer can come before its waiter).
        var inputs: [String: @Sendable (Result<Snapshot, BinderyError>) -> Void] = [:]
        /// Answers that came in a change the replica could not apply (it is being read whole again): given once it is.
        var deferredAnswers: [Batch.Answer] = []
        var owner: Owner?
        var isAcquiring = false
        init(name: String) { self.name = name }
    }

    /// This node's running instance, while it holds the lease.
    final class Owner: @unchecked Sendable {
        let session: any OwnedSession
        let epoch: Int64
        /// Events its turns published, not yet committed.
        var events: [ReplicatedEvent] = []
        /// Answers to inputs (their offsets) not yet committed: the last event id after each, or why it failed.
        var answers: [(input: Int64, request: String?, result: Result<UInt64, BinderyError>)] = []
        /// The last input applied, and the last one committed as applied.
        var inputsApplied: Int64
        var inputsCommitted: Int64
        /// Its whole state at its first turn, not yet committed (its first change).
        var seed: Snapshot?
        var isFlushing = false
        init(session: any OwnedSession, epoch: Int64, inputsThrough: Int64) {
            self.session = session
            self.epoch = epoch
            inputsApplied = inputsThrough
            inputsCommitted = inputsThrough
        }
    }

    /// One committed change of a shared session, as every replica applies it.
    struct Batch: Codable {
        struct Event: Codable {
            let id: UInt64
            let name: String
            let signal: Bool
            let json: String
            let whole: String?
        }
        struct Answer: Codable {
            let input: Int64
            /// The id the sending node gave the input.
            let request: String?
            let event: UInt64?
            let code: String?
            let message: String?
        }
        let session: String
        let epoch: Int64
        /// An owner's first change: every driver's whole value at `seedLastEventID`; the replica starts again from them.
        let seed: [Event]?
        let seedLastEventID: UInt64
        /// The events after the seed, or after the change before.
        let events: [Event]
        /// The last event id when the change was made.
        let lastEventID: UInt64
        let answers: [Answer]
    }

    struct Fenced: Error {}

    /// The shared sessions of `application` in the database at `url`, for
    /// node `node`, following `changes` (which the app starts); tables made if missing.
    package init(
        url: String, node: String, changes: ChangeLog, application: any SharedSessionRuntime, logger: Logger,
        leaseTime: Duration = .seconds(5), answerTimeout: Duration = .seconds(15)
    ) throws {
        self.node = node
        self.changes = changes
        self.application = application
        self.logger = logger
        self.leaseTime = leaseTime
        self.answerTimeout = answerTimeout
        database = PostgresDatabase(url: url, name: "shared")
        try PostgresSchema.migrate(database)
        application.hostSharedSessions(self)
    }

    /// Renews and takes leases every second, from now on.
    package func start() {
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: .now() + 1, repeating: 1)
        source.setEventHandler { [weak self] in self?.tick() }
        source.resume()
        timer.withLock { $0 = source }
    }

    /// Stops renewing; what this node owns is taken over by another once its lease runs out.
    package func stop() {
        timer.withLock {
            $0?.cancel()
            $0 = nil
        }
    }

    /// Stops a debug build (every test run) unless it runs on `queue`, where the host's state is confined.
    @inline(__always)
    func assertOnQueue() {
        #if DEBUG
            dispatchPrecondition(condition: .onQueue(queue))
        #endif
    }

    func viewModel(_ name: String) -> SharedViewModel {
        assertOnQueue()
        if let known = viewModels[name] { return known }
        let made = SharedViewModel(name: name)
        viewModels[name] = made
        return made
    }

    static func outputs(_ viewModel: String) -> String { "shared/\(viewModel)" }
    static func inputs(_ viewModel: String) -> String { "input/\(viewModel)" }

    static func dispatch(_ duration: Duration) -> DispatchTimeInterval {
        .milliseconds(Int(duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000))
    }
}
