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
/// Threading: the host's state is confined to `queue`; PostgreSQL is waited
/// for only on `database`'s queue; sessions are reached through their turns.
package final class PostgresSharedSessions: SharedSessionHost, @unchecked Sendable {
    private let node: String
    private let changes: ChangeLog
    private weak var application: Application?
    private let database: PostgresDatabase
    private let logger: Logger
    private let leaseTime: Duration
    private let answerTimeout: Duration
    private let queue = DispatchQueue(label: "bindery.shared")
    private let timer = Locked<DispatchSourceTimer?>(nil)
    /// Confined to `queue`.
    private var viewModels: [String: SharedViewModel] = [:]

    /// One shared ViewModel as this node sees it; confined to `queue`.
    private final class SharedViewModel: @unchecked Sendable {
        let name: String
        var replica: Session?
        var replicaEpoch: Int64 = 0
        var isReady = false
        var isLoading = false
        var waiting: [@Sendable (Result<Session, BinderyError>) -> Void] = []
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
    private final class Owner: @unchecked Sendable {
        let session: Session
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
        init(session: Session, epoch: Int64, inputsThrough: Int64) {
            self.session = session
            self.epoch = epoch
            inputsApplied = inputsThrough
            inputsCommitted = inputsThrough
        }
    }

    /// One committed change of a shared session, as every replica applies it.
    private struct Batch: Codable {
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

    private struct Fenced: Error {}

    /// The shared sessions of `application` in the database at `url`, for
    /// node `node`, following `changes` (which the app starts); tables made if missing.
    package init(
        url: String, node: String, changes: ChangeLog, application: Application, logger: Logger,
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

    private func viewModel(_ name: String) -> SharedViewModel {
        if let known = viewModels[name] { return known }
        let made = SharedViewModel(name: name)
        viewModels[name] = made
        return made
    }

    // MARK: Replicas

    package func replica(of viewModel: String, completion: @escaping @Sendable (Result<Session, BinderyError>) -> Void) {
        queue.async { [self] in
            let shared = self.viewModel(viewModel)
            if let replica = shared.replica, shared.isReady, (try? application?.liveSession(viewModel, id: replica.id)) === replica {
                return completion(.success(replica))
            }
            shared.isReady = false
            shared.waiting.append(completion)
            queue.asyncAfter(deadline: .now() + Self.dispatch(answerTimeout)) {
                guard !shared.waiting.isEmpty, !shared.isReady else { return }
                let waiting = shared.waiting
                shared.waiting = []
                waiting.forEach { $0(.failure(BinderyError(.storeUnavailable, "the shared session \(viewModel) has no owner now; try again"))) }
            }
            if !shared.isLoading { load(shared) }
            if shared.owner == nil { renewOrAcquire(shared) }
        }
    }

    /// Reads the committed state (whole) and follows the changes after it.
    private func load(_ shared: SharedViewModel) {
        shared.isLoading = true
        let name = shared.name
        database.async { [self] connection in
            let read = Result { () throws -> (session: String, epoch: Int64, lastEventID: UInt64, values: [(name: String, json: Data)], offset: Int64)? in
                let db = try connection.get()
                try db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
                defer { _ = try? db.execute("COMMIT") }
                let offset = try ChangeLog.lastOffset(of: Self.outputs(name), in: db)
                guard let row = try db.execute("SELECT session_id, epoch, last_event_id FROM bindery_shared WHERE view_model = $1", [.text(name)]).first
                else { return nil }
                let values = try db.execute("SELECT name, json FROM bindery_shared_value WHERE view_model = $1 ORDER BY name", [.text(name)]).map {
                    (name: $0[0].text ?? "", json: $0[1].bytes ?? Data())
                }
                return (row[0].text ?? "", row[1].int ?? 0, UInt64(bitPattern: row[2].int ?? 0), values, offset)
            }
            queue.async { [self] in
                shared.isLoading = false
                switch read {
                case .failure(let error):
                    logger.warning("shared session not read", metadata: ["view_model": "\(name)", "error": "\(error)"])
                case .success(nil):
                    // Never run yet: its first owner's first change seeds the replica.
                    follow(shared, after: 0)
                case .success(let state?):
                    seedReplica(shared, session: state.session, epoch: state.epoch, values: state.values, lastEventID: state.lastEventID)
                    follow(shared, after: state.offset)
                }
            }
        }
    }

    private func follow(_ shared: SharedViewModel, after offset: Int64) {
        changes.follow(
            Self.outputs(shared.name), after: offset,
            deliver: { [weak self] _, payload in
                guard let self else { return }
                queue.async { self.apply(payload, to: shared) }
            },
            behind: { [weak self] in
                guard let self else { return }
                queue.async { self.load(shared) }
            })
    }

    /// The replica made again (or for the first time) from whole values.
    private func seedReplica(_ shared: SharedViewModel, session id: String, epoch: Int64, values: [(name: String, json: Data)], lastEventID: UInt64) {
        guard let application else { return }
        let replica: Session
        if let current = shared.replica, current.id == id, (try? application.liveSession(shared.name, id: id)) === current {
            replica = current
        } else {
            do {
                replica = try application.addReplica(shared.name, id: id) { [weak self] input, payload, completion in
                    self?.send(input, payload, to: shared, completion: completion)
                }
            } catch {
                let waiting = shared.waiting
                shared.waiting = []
                waiting.forEach { $0(.failure(error as? BinderyError ?? BinderyError(.limitReached, "\(error)"))) }
                return
            }
        }
        shared.replica = replica
        shared.replicaEpoch = epoch
        replica.reseed(values, through: lastEventID) { [weak self] in
            guard let self else { return }
            queue.async {
                shared.isReady = true
                let waiting = shared.waiting
                shared.waiting = []
                waiting.forEach { $0(.success(replica)) }
                let deferred = shared.deferredAnswers
                shared.deferredAnswers = []
                self.answer(deferred, from: shared)
            }
        }
    }

    /// A committed change of the owner: applied to the replica, then the answers to this node's inputs.
    private func apply(_ payload: Data, to shared: SharedViewModel) {
        guard let batch = try? JSONDecoder().decode(Batch.self, from: payload) else { return }
        if let seed = batch.seed {
            seedReplica(
                shared, session: batch.session, epoch: batch.epoch, values: seed.map { ($0.name, Data($0.json.utf8)) }, lastEventID: batch.seedLastEventID)
        } else if shared.replica?.id != batch.session || shared.replicaEpoch != batch.epoch {
            // A change of an owner whose first change this replica has not seen: read it whole, then answer.
            shared.deferredAnswers += batch.answers
            return load(shared)
        }
        if let replica = shared.replica, !batch.events.isEmpty {
            let events = batch.events.map {
                ReplicatedEvent(id: $0.id, name: $0.name, kind: $0.signal ? .signal : .driver, json: Data($0.json.utf8), whole: $0.whole.map { Data($0.utf8) })
            }
            replica.replicate(events) { [weak self] followed in
                // Ids that do not follow: this replica missed something; read it whole again.
                guard !followed, let self else { return }
                queue.async { self.load(shared) }
            }
        }
        answer(batch.answers, from: shared)
    }

    /// Gives this node's inputs their answers, each in a turn of the replica after what it has applied.
    private func answer(_ answers: [Batch.Answer], from shared: SharedViewModel) {
        guard let replica = shared.replica else { return }
        for answer in answers {
            guard let request = answer.request, let completion = shared.inputs.removeValue(forKey: request) else { continue }
            if let code = answer.code {
                completion(.failure(BinderyError(BinderyError.Code(rawValue: code), answer.message ?? "")))
            } else {
                // In the replica's turn after the events above: what the input did is in its answer.
                replica.inputAnswer(completion)
            }
        }
    }

    /// An input to the shared session, from this node: appended for the owner, answered once the owner's answer is committed.
    private func send(_ input: String, _ payload: Data, to shared: SharedViewModel, completion: @escaping @Sendable (Result<Snapshot, BinderyError>) -> Void) {
        let topic = Self.inputs(shared.name)
        let request = UUID().uuidString
        let body: Data
        do {
            body = try JSONEncoder().encode(["input": input, "payload": payload.base64EncodedString(), "request": request])
        } catch {
            return completion(.failure(BinderyError(.invalidPayload, "\(error)")))
        }
        // The waiter first: the owner's answer may come back before the append's own thread goes on.
        queue.async { [self] in
            shared.inputs[request] = completion
            queue.asyncAfter(deadline: .now() + Self.dispatch(answerTimeout)) {
                shared.inputs.removeValue(forKey: request)?(
                    .failure(BinderyError(.storeUnavailable, "the shared session's owner did not answer in time; the input may still apply")))
            }
            database.async { [self] connection in
                let appended = Result { () throws -> Int64 in
                    let db = try connection.get()
                    return try db.transaction { db in
                        let offset = try ChangeLog.lock(topic, in: db)
                        try changes.append(body, to: topic, at: offset, in: db)
                        return offset
                    }
                }
                switch appended {
                case .failure(let error):
                    logger.warning("input to a shared session not sent", metadata: ["view_model": "\(shared.name)", "error": "\(error)"])
                    queue.async {
                        shared.inputs.removeValue(forKey: request)?(
                            .failure(BinderyError(.storeUnavailable, "the shared session cannot be reached now; try again")))
                    }
                case .success(let offset):
                    changes.committed(body, to: topic, at: offset)
                }
            }
        }
    }

    // MARK: Owning

    /// Every second: renew what this node owns, take over what nobody renewed.
    private func tick() {
        for shared in viewModels.values { renewOrAcquire(shared) }
    }

    private func renewOrAcquire(_ shared: SharedViewModel) {
        let name = shared.name
        let seconds = Int64(leaseTime.components.seconds)
        if let owner = shared.owner {
            let epoch = owner.epoch
            database.async { [self] connection in
                let renewed =
                    (try? connection.get().execute(
                        "UPDATE bindery_lease SET expires_at = now() + make_interval(secs => $4) WHERE view_model = $1 AND node = $2 AND epoch = $3 RETURNING epoch",
                        [.text(name), .text(node), .int(epoch), .int(seconds)]
                    ).isEmpty == false) ?? false
                if !renewed { queue.async { [self] in stopOwning(shared, epoch: epoch, why: "its lease was not renewed") } }
            }
            return
        }
        guard !shared.isAcquiring else { return }
        shared.isAcquiring = true
        database.async { [self] connection in
            let taken = Result { () throws -> (epoch: Int64, session: String?, lastEventID: UInt64, inputsThrough: Int64, state: Data?)? in
                let db = try connection.get()
                return try db.transaction { db in
                    guard
                        let epoch = try db.execute(
                            """
                            INSERT INTO bindery_lease (view_model, node, epoch, expires_at) VALUES ($1, $2, 1, now() + make_interval(secs => $3))
                            ON CONFLICT (view_model) DO UPDATE SET node = EXCLUDED.node, epoch = bindery_lease.epoch + 1, expires_at = EXCLUDED.expires_at
                            WHERE bindery_lease.expires_at < now()
                            RETURNING epoch
                            """, [.text(name), .text(node), .int(seconds)]
                        ).first?[0].int
                    else { return nil }
                    let row = try db.execute(
                        "SELECT session_id, last_event_id, inputs_through, state FROM bindery_shared WHERE view_model = $1", [.text(name)]
                    ).first
                    return (epoch, row?[0].text, UInt64(bitPattern: row?[1].int ?? 0), row?[2].int ?? 0, row?[3].bytes)
                }
            }
            queue.async { [self] in
                shared.isAcquiring = false
                switch taken {
                case .failure(let error): logger.warning("shared session's lease not read", metadata: ["view_model": "\(name)", "error": "\(error)"])
                case .success(nil): break
                case .success(let lease?): becomeOwner(shared, lease)
                }
            }
        }
    }

    private func becomeOwner(_ shared: SharedViewModel, _ lease: (epoch: Int64, session: String?, lastEventID: UInt64, inputsThrough: Int64, state: Data?)) {
        guard let application else { return }
        let name = shared.name
        let id = lease.session ?? SessionID.make()
        // Its ids jump past any its predecessor may have used; its first change is its whole state.
        let resuming = lease.session.map { _ in
            StoredSession(id: id, viewModel: name, isShared: true, state: lease.state, lastEventID: lease.lastEventID, stoppedCleanly: false)
        }
        logger.info("shared session owned here", metadata: ["view_model": "\(name)", "session": "\(id)", "epoch": "\(lease.epoch)"])
        let pending = Mutex<[ReplicatedEvent]>([])
        let owning = Mutex<Owner?>(nil)
        application.makeOwner(
            name, id: id, resuming: resuming,
            tap: { [weak self] event in
                // Events of its first turns (before `owner` is set) wait in `pending`.
                if owning.withLock({ $0 == nil }) {
                    pending.withLock { $0.append(event) }
                } else {
                    guard let self else { return }
                    queue.async { self.published(event, by: shared) }
                }
            },
            completion: { [self] made in
                queue.async { [self] in
                    switch made {
                    case .failure(let error):
                        logger.error("shared session could not be made", metadata: ["view_model": "\(name)", "error": "\(error)"])
                    case .success(let session):
                        let owner = Owner(session: session, epoch: lease.epoch, inputsThrough: lease.inputsThrough)
                        shared.owner = owner
                        owning.withLock { $0 = owner }
                        owner.events = pending.withLock { $0 }
                        // Its whole state first (in a turn before any input), then the inputs not yet applied.
                        session.snapshot { [self] snapshot in
                            queue.async { [self] in
                                guard shared.owner === owner, case .success(let snapshot) = snapshot else { return }
                                owner.seed = snapshot
                                owner.events.removeAll { $0.id <= snapshot.lastEventID }
                                flush(shared)
                            }
                        }
                        changes.follow(
                            Self.inputs(name), after: lease.inputsThrough,
                            deliver: { [weak self] offset, payload in
                                guard let self else { return }
                                queue.async { self.applyInput(offset, payload, to: shared, owner: owner) }
                            },
                            behind: { [weak self] in
                                self?.logger.error("inputs to a shared session are no longer kept: some were not applied", metadata: ["view_model": "\(name)"])
                            })
                    }
                }
            })
    }

    private func published(_ event: ReplicatedEvent, by shared: SharedViewModel) {
        guard let owner = shared.owner else { return }
        owner.events.append(event)
        flush(shared)
    }

    private func applyInput(_ offset: Int64, _ payload: Data, to shared: SharedViewModel, owner: Owner) {
        guard shared.owner === owner, offset > owner.inputsApplied else { return }
        owner.inputsApplied = offset
        let body = try? JSONDecoder().decode([String: String].self, from: payload)
        guard let body, let input = body["input"], let data = body["payload"].flatMap({ Data(base64Encoded: $0) }) else {
            owner.answers.append((offset, body?["request"], .failure(BinderyError(.invalidPayload, "the input could not be read"))))
            return flush(shared)
        }
        let request = body["request"]
        owner.session.send(input: input, payload: data) { [self] result in
            queue.async { [self] in
                guard shared.owner === owner else { return }
                owner.answers.append((offset, request, result.map(\.lastEventID)))
                flush(shared)
            }
        }
    }

    /// Commits what the owner did since its last commit, in one fenced
    /// transaction; then the next, if more came meanwhile. The state written is
    /// captured in a turn after every event and input answer it includes, and
    /// before any it does not: a next owner that starts from it applies
    /// exactly the inputs after `inputs_through` again.
    private func flush(_ shared: SharedViewModel) {
        guard let owner = shared.owner, !owner.isFlushing, owner.seed != nil || !owner.events.isEmpty || !owner.answers.isEmpty else { return }
        owner.isFlushing = true
        owner.session.capture { [self] record in
            queue.async { [self] in
                guard shared.owner === owner else { return }
                let lastEventID = record?.lastEventID ?? owner.seed?.lastEventID ?? 0
                let seed = owner.seed
                owner.seed = nil
                let events = owner.events.filter { $0.id <= lastEventID }
                owner.events.removeAll { $0.id <= lastEventID }
                let answers = owner.answers
                owner.answers = []
                let batch = Batch(
                    session: owner.session.id, epoch: owner.epoch,
                    seed: seed.map { snapshot in
                        snapshot.outputs.map {
                            Batch.Event(id: snapshot.lastEventID, name: $0.name, signal: false, json: String(decoding: $0.json, as: UTF8.self), whole: nil)
                        }
                    },
                    seedLastEventID: seed?.lastEventID ?? 0,
                    events: events.map {
                        Batch.Event(
                            id: $0.id, name: $0.name, signal: $0.kind == .signal, json: String(decoding: $0.json, as: UTF8.self),
                            whole: $0.whole.map { String(decoding: $0, as: UTF8.self) })
                    },
                    lastEventID: lastEventID,
                    answers: answers.map { answer in
                        switch answer.result {
                        case .success(let event): Batch.Answer(input: answer.input, request: answer.request, event: event, code: nil, message: nil)
                        case .failure(let error):
                            Batch.Answer(input: answer.input, request: answer.request, event: nil, code: error.code.rawValue, message: error.message)
                        }
                    })
                // Inputs are applied in order, each answered: those answered here are all up to the last of them.
                let inputsThrough = max(owner.inputsCommitted, answers.map(\.input).max() ?? 0)
                commit(batch, inputsThrough, state: record?.state, for: shared, owner: owner)
            }
        }
    }

    private func commit(_ batch: Batch, _ inputsThrough: Int64, state: Data?, for shared: SharedViewModel, owner: Owner) {
        let name = shared.name
        let topic = Self.outputs(name)
        let payload: Data
        do {
            payload = try JSONEncoder().encode(batch)
        } catch {
            return stopOwning(shared, epoch: owner.epoch, why: "its change could not be encoded: \(error)")
        }
        database.async { [self] connection in
            let committed = Result { () throws -> Int64 in
                let db = try connection.get()
                return try db.transaction { db in
                    // The fence: this node, this epoch, not expired; held until the commit, so no one takes it over meanwhile.
                    guard
                        !(try db.execute(
                            "SELECT 1 FROM bindery_lease WHERE view_model = $1 AND node = $2 AND epoch = $3 AND expires_at > now() FOR UPDATE",
                            [.text(name), .text(node), .int(owner.epoch)]
                        ).isEmpty)
                    else { throw Fenced() }
                    let offset = try ChangeLog.lock(topic, in: db)
                    try changes.append(payload, to: topic, at: offset, in: db)
                    try db.execute(
                        """
                        INSERT INTO bindery_shared (view_model, session_id, epoch, last_event_id, inputs_through, state) VALUES ($1, $2, $3, $4, $5, $6)
                        ON CONFLICT (view_model) DO UPDATE SET session_id = EXCLUDED.session_id, epoch = EXCLUDED.epoch,
                            last_event_id = EXCLUDED.last_event_id, inputs_through = EXCLUDED.inputs_through, state = EXCLUDED.state
                        """,
                        [
                            .text(name), .text(batch.session), .int(owner.epoch), .int(Int64(bitPattern: batch.lastEventID)), .int(inputsThrough),
                            state.map(PostgresValue.bytes) ?? .null,
                        ])
                    if batch.seed != nil { try db.execute("DELETE FROM bindery_shared_value WHERE view_model = $1", [.text(name)]) }
                    for event in (batch.seed ?? []) + batch.events where !event.signal {
                        try db.execute(
                            "INSERT INTO bindery_shared_value (view_model, name, json) VALUES ($1, $2, $3) ON CONFLICT (view_model, name) DO UPDATE SET json = EXCLUDED.json",
                            [.text(name), .text(event.name), .bytes(Data((event.whole ?? event.json).utf8))])
                    }
                    return offset
                }
            }
            queue.async { [self] in
                switch committed {
                case .success(let offset):
                    owner.inputsCommitted = inputsThrough
                    changes.committed(payload, to: topic, at: offset)
                    owner.isFlushing = false
                    flush(shared)
                case .failure(let error):
                    stopOwning(shared, epoch: owner.epoch, why: error is Fenced ? "another node holds its lease" : "its change was not committed: \(error)")
                }
            }
        }
    }

    /// Lets go of the instance this node ran: what it had not committed is
    /// undone (its inputs are applied again by the next owner, from the committed state).
    private func stopOwning(_ shared: SharedViewModel, epoch: Int64, why: String) {
        guard let owner = shared.owner, owner.epoch == epoch else { return }
        logger.warning("shared session no longer owned here", metadata: ["view_model": "\(shared.name)", "epoch": "\(epoch)", "why": "\(why)"])
        shared.owner = nil
        changes.unfollow(Self.inputs(shared.name))
        owner.session.dispose()
    }

    private static func outputs(_ viewModel: String) -> String { "shared/\(viewModel)" }
    private static func inputs(_ viewModel: String) -> String { "input/\(viewModel)" }

    private static func dispatch(_ duration: Duration) -> DispatchTimeInterval {
        .milliseconds(Int(duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000))
    }
}

extension Application {
    /// Makes this process a node of a cluster on the PostgreSQL database at
    /// `url`: its sessions kept there (`keepSessions(inPostgres:)`, unless
    /// `keepingSessions` is false), its browsers' sign-ins and scripts' tokens
    /// kept there (`PostgresSignInStore`: a browser signed in through one node
    /// is signed in on all, and signed out on all at once), its shared ViewModels
    /// run once for the cluster, and a change log the app's own stores share
    /// values through (the todo list's store takes it). Listens from now on.
    /// Call before serving.
    public func joinCluster(postgres url: String, keepingSessions: Bool = true, logger: Logger) throws -> ChangeLog {
        let node = UUID().uuidString
        let changes = try ChangeLog(url: url, logger: logger)
        if keepingSessions { try keepSessions(inPostgres: url, node: node, listeningWith: changes) }
        keepSignIns(in: try PostgresSignInStore(url: url, node: node, listeningWith: changes))
        let shared = try PostgresSharedSessions(
            url: url, node: node, changes: changes, application: self, logger: logger, leaseTime: configuration.sharedSessionLease,
            answerTimeout: configuration.sharedSessionAnswerTimeout)
        readiness.add { changes.isConnected ? nil : "this node cannot reach its shared database; it serves what it has" }
        changes.start()
        shared.start()
        return changes
    }
}
