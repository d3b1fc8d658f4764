import Foundation

/// One running ViewModel, its event log and the subscriptions it feeds.
///
/// Everything in a session happens in turns of its `SerialScheduler` on the
/// shared executor pool: the ViewModel is made and bound, inputs are applied in
/// arrival order, outputs are logged once for every subscriber. Callers reach it
/// through methods that queue a job and call back from the turn: none of them
/// waits, so no thread is ever held waiting for a busy session.
///
/// Threading: the methods may be called from any thread; `completion`s run in
/// the session's turn and must not block.
package final class Session: @unchecked Sendable {
    /// The session id.
    package let id: String
    /// The registered name of its ViewModel.
    package let viewModelName: String
    /// The client it was made for (counted against `maxSessionsPerClient`), if any.
    package let client: String?
    /// Whom it answers besides its id (nil: anyone with the id).
    package let owner: SessionOwner?
    /// What a store needs to make it again; nil for a session that is not
    /// kept (a child, made by its parent's output rather than by a factory).
    package let origin: SessionOrigin?
    /// The scheduler everything in the session runs on.
    let scheduler: SerialScheduler
    private let limits: RuntimeConfiguration

    // Confined to `scheduler`.
    /// The event log, shared with the subscriptions that read it.
    private let broadcast: Broadcast
    private var ports: ViewModelPorts?
    private var subscription: Disposable?
    private var subscribers: [ObjectIdentifier: Subscription] = [:]
    /// The version of the value each changing output (`KeyedList`) sent last.
    private var sentVersions: [String: UInt64] = [:]
    /// The input being applied, for the holds its work takes on its answer (`AnswerHold`).
    private let inputTurn = InputTurn()
    /// Its recent inputs sent with a client's key, and their answers.
    private let inputKeys: InputKeys
    private var isDisposed = false
    /// It was let go to its store (idle, or the server stopping): a request
    /// that found it just before should find it again (`BinderyError.Code.retired`).
    private var isRetired = false
    /// Its `SessionRelay`s, if it is kept.
    private var state: SessionState?
    /// What it received and sent, in development (`RuntimeConfiguration.recordsTranscripts`).
    private var transcript: SessionTranscript?

    // Read from any thread (the idle reaper).
    private let activity = NSLock()
    private var lastActive = ContinuousClock.now
    private var feeding = 0
    /// Whether anyone has streamed from it or sent it an input since it was made.
    private var wasUsed = false
    /// When its store last heard that it was seen.
    private var seenTold = ContinuousClock.now

    /// What the session is for, fixed at its making.
    let role: Role
    /// What the application gives it, fixed at its making.
    private let links: Links

    /// What a session is for: what its inputs reach and where its events go besides
    /// its streams. Fixed at the session's making, so a role is never half-set.
    enum Role: Sendable {
        /// A session of this process's own: made by a factory, by a parent's output (a
        /// child, on its parent's scheduler), or again from the store (`origin` says
        /// whether it is kept). Its inputs reach its ViewModel.
        case own
        /// A cluster's replica of a shared ViewModel owned by another process: it has no
        /// ViewModel, and its log holds the owner's events (`replicate`, `reseed`). Its
        /// inputs go to `forward` (the owner, through the cluster), answered once the
        /// replica has the events they caused.
        case replica(forward: Forward)
        /// The owner of a shared ViewModel, in no table: every event it publishes goes to
        /// `tap` too, in its turn and in order, which writes it for the replicas.
        case owner(tap: @Sendable (ReplicatedEvent) -> Void)

        /// Where a replica's inputs go.
        package typealias Forward =
            @Sendable (
                _ input: String, _ payload: Data, _ completion: @escaping @Sendable (Result<Snapshot, BinderyError>) -> Void
            ) -> Void
    }

    /// What the application gives a session: how it starts a child, where a child is
    /// served, and how its store hears of a change. A session without them starts no
    /// child and is saved nowhere.
    struct Links: Sendable {
        /// Makes a session, on the given scheduler (this session's), for a ViewModel an output emitted.
        var spawn: (@Sendable (_ viewModel: AnyObject, _ scheduler: SerialScheduler) throws -> Session)?
        /// Where a session is served, for the child references this one sends.
        var sessionURL: (@Sendable (_ viewModel: String, _ id: String) -> String)?
        /// Tells the application's store that the session has something to save (its
        /// state changed, or it was seen after a while): a kept session's only.
        var onChange: (@Sendable (Session) -> Void)?

        package init(
            spawn: (@Sendable (AnyObject, SerialScheduler) throws -> Session)? = nil,
            sessionURL: (@Sendable (String, String) -> String)? = nil, onChange: (@Sendable (Session) -> Void)? = nil
        ) {
            self.spawn = spawn
            self.sessionURL = sessionURL
            self.onChange = onChange
        }
    }

    /// Where a replica's inputs go; nil for any other role.
    private var forward: Role.Forward? {
        if case .replica(let forward) = role { forward } else { nil }
    }

    /// A session running on `scheduler`: a new one for a session of its own, its
    /// parent's for a child (the child ViewModel was made in the parent's turn, so
    /// its drivers deliver there).
    init(
        id: String, viewModelName: String, client: String?, owner: SessionOwner?, origin: SessionOrigin? = nil, role: Role = .own,
        links: Links = Links(), limits: RuntimeConfiguration, scheduler: SerialScheduler, format: EventWireFormat,
        published: PublicationCount = PublicationCount()
    ) {
        self.id = id
        self.role = role
        self.links = links
        self.viewModelName = viewModelName
        self.client = client
        self.owner = owner
        self.origin = origin
        self.limits = limits
        self.scheduler = scheduler
        inputKeys = InputKeys(capacity: limits.inputKeysPerSession)
        broadcast = Broadcast(
            log: EventLog(retained: limits.retainedEvents, format: format), maxBufferedBytes: limits.streamBufferBytes,
            published: published)
    }

    /// Stops a debug build unless this thread is in one of the session's turns:
    /// what the comment `// Confined to scheduler` says of the state above, checked.
    @inline(__always)
    private func assertInTurn(file: StaticString = #fileID, line: UInt = #line) {
        assert(scheduler.isCurrent, "session \(id)'s state is touched only in its turns", file: file, line: line)
    }

    /// Runs `work` in a turn and, once everything it caused inline has run,
    /// calls `completion` with what `answer` makes, in the same turn; for an
    /// input (`input`) whose work took holds on its answer, in a turn after
    /// they are released (or, past `heldAnswerTimeout`, with `answer_timeout`,
    /// unless `answersLate`: then with what `answer` makes by then).
    private func perform<T>(
        _ work: @escaping () throws -> Void = {}, input: InputTurn? = nil, answersLate: Bool = false, answer: @escaping () throws -> T,
        endedLate: (@Sendable (BinderyError?) -> Void)? = nil, completion: @escaping @Sendable (Result<T, BinderyError>) -> Void
    ) {
        touch()
        var failure: BinderyError?  // confined to this turn
        scheduler.async(
            { [self] in
                broadcast.holdWakes()
                input?.begin()
                do {
                    guard !isDisposed else { throw disposedError }
                    try work()
                } catch {
                    failure = problem(error)
                }
            },
            then: { [self] in
                // The client that asked is answered before the readers of what its work published are woken.
                defer { broadcast.releaseWakes() }
                let pending = input?.end()
                if let failure {
                    pending?.whenReleased { _ in }
                    return completion(.failure(failure))
                }
                if let pending { return answerOnceReleased(pending, answer, answersLate: answersLate, endedLate: endedLate, completion) }
                do {
                    completion(.success(try answer()))
                } catch {
                    completion(.failure(problem(error)))
                }
            })
    }

    /// Answers an input whose work holds its answer: in a turn after the last
    /// release (with the failure a hold was released with, logged with its
    /// cause), or 504 `answer_timeout` if that takes longer than
    /// `heldAnswerTimeout` (`answersLate`: what `answer` makes then), and then
    /// tells `endedLate` (in a turn) how the work ended.
    private func answerOnceReleased<T>(
        _ pending: PendingAnswer, _ answer: @escaping () throws -> T, answersLate: Bool = false,
        endedLate: (@Sendable (BinderyError?) -> Void)?, _ completion: @escaping @Sendable (Result<T, BinderyError>) -> Void
    ) {
        let limit = limits.heldAnswerTimeout
        pending.whenReleased(
            within: limit,
            { [self] failure in
                guard let failure, failure.code != .alreadyApplied else { return perform(answer: answer, completion: completion) }
                limits.logger.error(
                    "input failed",
                    metadata: [
                        "session": "\(id)", "view_model": "\(viewModelName)", "error": "\(failure.code.rawValue)",
                        "cause": "\(failure.cause ?? failure.message)",
                    ])
                scheduler.async { completion(.failure(failure)) }
            },
            orElse: { [self] in
                if answersLate {
                    limits.logger.warning(
                        "ViewModel made before the work its bind started finished",
                        metadata: ["session": "\(id)", "view_model": "\(viewModelName)", "seconds": "\(limit.components.seconds)"])
                    return perform(answer: answer, completion: completion)
                }
                scheduler.async {
                    completion(
                        .failure(
                            BinderyError(
                                .answerTimeout,
                                "the input was applied, but the work it started did not finish within \(limit.components.seconds) s; "
                                    + "what it does when it finishes reaches the event stream (sending the input again would apply it twice)",
                                applied: true)))
                }
            },
            endedLate: endedLate.map { endedLate in { [scheduler] failure in scheduler.async { endedLate(failure) } } })
    }

    private var disposedError: BinderyError {
        isRetired ? BinderyError(.retired, "session \(id) was let go to its store") : BinderyError(.unknownSession, "session \(id) was disposed")
    }

    /// `error` as a client is told it: a `BinderyError` as it is, anything
    /// else without its words (they may be a database's), which are logged.
    private func problem(_ error: Error) -> BinderyError {
        assertInTurn()
        let problem = error as? BinderyError ?? BinderyError(.viewModelFailed, "\(viewModelName) failed", cause: "\(error)")
        if let cause = problem.cause {
            limits.logger.error(
                "ViewModel failed",
                metadata: ["session": "\(id)", "view_model": "\(viewModelName)", "error": "\(problem.message)", "cause": "\(cause)"])
            limits.reportsProblems?(
                ViewModelProblem(viewModel: viewModelName, type: ports?.viewModelType, message: problem.message, cause: cause))
        }
        return problem
    }

    /// Makes the ViewModel with `make` and subscribes to its outputs, in the
    /// session's first turn; rebuilding from `stored`, its `SessionRelay`s
    /// take their stored values, and its event ids go on from the stored ones.
    /// The turn is an input's: work that `bind` started and that holds its
    /// answer (`AnswerHold`: a first read from a database, a durable write) is
    /// done before the session is, so its first snapshot (a create's answer, a
    /// page's first paint, a session rebuilt for a request) has what it read;
    /// a hold released failing fails the start. Work that outlasts
    /// `heldAnswerTimeout` leaves the session made without it: what it brings
    /// reaches the streams.
    func start(
        declaredOutputs: [String: OutputKind], resuming stored: StoredSession? = nil, _ make: @escaping () throws -> Any,
        completion: @escaping @Sendable (Result<Void, BinderyError>) -> Void
    ) {
        perform(
            { [self] in
                var (ports, state) = try build(make, declaredOutputs: declaredOutputs, restoring: stored?.state)
                var restored = stored?.state == nil ? (state?.isEmpty ?? true) : (state?.isRestored ?? false)
                if let stored, !restored {
                    limits.logger.warning(
                        "stored state does not fit the ViewModel: made afresh",
                        metadata: ["view_model": "\(viewModelName)", "session": "\(id)"])
                    if stored.state != nil {
                        ports.discard()
                        (ports, state) = try build(make, declaredOutputs: declaredOutputs, restoring: nil)
                    }
                    restored = false
                }
                if let stored, restored { inputKeys.restore(stored.inputKeys) }
                if let stored {
                    // Ids go on from the last one only if this is exactly where the session
                    // stopped; otherwise past any id it may have used, so that a resuming
                    // stream starts over (`bindery.reset`) rather than skipping what it never had.
                    let exact = stored.stoppedCleanly && restored
                    broadcast.withLog { $0.resume(after: exact ? stored.lastEventID : stored.lastEventID &+ SessionArchive.restartGap) }
                }
                self.ports = ports
                self.state = state
                if limits.recordsTranscripts, forward == nil {
                    let transcript = SessionTranscript(parameters: origin?.parameters ?? Data())
                    transcript.viewModelType = ports.viewModelType
                    self.transcript = transcript
                }
                subscription = try ports.subscribe(
                    { [weak self] name, kind, value in
                        self?.receive(value, from: name, kind: kind)
                    },
                    onError: { [weak self] name, error in
                        guard let self else { return }
                        limits.logger.error("output failed", metadata: ["session": "\(id)", "output": "\(name)", "error": "\(error)"])
                        limits.reportsProblems?(
                            ViewModelProblem(
                                viewModel: viewModelName, type: self.ports?.viewModelType, output: name,
                                message: "output \(name) of \(viewModelName) ended with an error", cause: String(reflecting: error)))
                    })
                // Saved soon: a new session, or a rebuilt one as it runs here now.
                links.onChange?(self)
            }, input: inputTurn, answersLate: true, answer: {}, completion: completion)
    }

    /// Makes the ViewModel and finds its ports, with the `SessionRelay`s it
    /// makes meanwhile kept in a state of its own (restored from `restoring`)
    /// if the session is kept.
    private func build(
        _ make: @escaping () throws -> Any, declaredOutputs: [String: OutputKind], restoring: Data?
    ) throws -> (ViewModelPorts, SessionState?) {
        assertInTurn()
        let made = { [viewModelName] () throws -> ViewModelPorts in
            let viewModel: Any
            do {
                viewModel = try make()
            } catch let error as BinderyError {
                throw error
            } catch {
                throw BinderyError(.viewModelFailed, "\(viewModelName) could not be created", cause: "\(error)")
            }
            return try ViewModelPorts(viewModel, declaredOutputs: declaredOutputs)
        }
        guard origin != nil else { return (try made(), nil) }
        let changed: @Sendable () -> Void = { [weak self] in
            guard let self else { return }
            links.onChange?(self)
        }
        let state = SessionState(restoring: restoring, onChange: changed)
        return (try SessionState.$current.withValue(state) { try made() }, state)
    }

    /// What the session received and sent so far, in development; nil otherwise.
    package func transcript(_ completion: @escaping @Sendable (Result<SessionTranscript?, BinderyError>) -> Void) {
        perform(answer: { [self] in transcript }, completion: completion)
    }

    private func receive(_ value: ViewModelPorts.Value, from name: String, kind: OutputKind) {
        // The log is written in the session's turns only; a ViewModel may still emit
        // from elsewhere (a service's thread, an observable made on another queue).
        guard scheduler.isCurrent else {
            scheduler.async { [weak self] in self?.receive(value, from: name, kind: kind) }
            return
        }
        guard !isDisposed else { return }
        do {
            let json: Data
            switch value {
            case .json(let data):
                json = data
                transcript?.record(.output(name: name, json: data))
            case .changing(let value):
                defer { sentVersions[name] = value.version }
                if let transcript { transcript.record(.output(name: name, json: try value.fullJSON())) }
                // Its changes, if they are to the value this output sent last; otherwise whole.
                if kind == .driver, let base = value.base, base == sentVersions[name], let changes = try value.changesJSON() {
                    let event = broadcast.publish(name: name, kind: kind, json: changes, whole: value.fullJSON)
                    if case .owner(let tap) = role {
                        tap(ReplicatedEvent(id: event.id, name: name, kind: kind, json: changes, whole: try value.fullJSON()))
                    }
                    return
                }
                json = try value.fullJSON()
            case .viewModel(let viewModel):
                // A test store receives a child as its type.
                transcript?.record(.output(name: name, json: Data(#"{"viewModel":"\#(type(of: viewModel))"}"#.utf8)))
                guard let spawn = links.spawn else { throw BinderyError(.viewModelFailed, "no application to start a child session") }
                let child = try spawn(viewModel, scheduler)
                json = try JSONEncoder.bindery.encode(
                    ChildReference(
                        viewModel: child.viewModelName, id: child.id,
                        url: links.sessionURL?(child.viewModelName, child.id)))
            }
            // Logged once for every subscription; the waiting readers are woken in
            // one burst, so the server's event loop serves them in a few passes
            // rather than one each (libmicrohttpd walks all suspended connections per pass).
            let event = broadcast.publish(name: name, kind: kind, json: json)
            if case .owner(let tap) = role { tap(ReplicatedEvent(id: event.id, name: name, kind: kind, json: json, whole: nil)) }
        } catch {
            limits.logger.error("output could not be sent", metadata: ["session": "\(id)", "output": "\(name)", "error": "\(error)"])
        }
    }

    /// Marks the session asked now (for idle expiry), and tells its store
    /// now and then, so that a stored session seen lately does not expire.
    func touch() {
        let now = ContinuousClock.now
        let tell = activity.withLock {
            lastActive = now
            guard origin != nil, now - seenTold >= Self.seenRefresh else { return false }
            seenTold = now
            return true
        }
        if tell { links.onChange?(self) }
    }

    /// How often a session in use tells its store it was seen.
    static let seenRefresh: Duration = .seconds(60)

    /// Tells the store that the session is streamed from, if it was not told lately (the idle reaper's rounds).
    func markSeenIfStreamed() {
        let now = ContinuousClock.now
        let tell = activity.withLock {
            guard origin != nil, feeding > 0, now - seenTold >= Self.seenRefresh else { return false }
            seenTold = now
            return true
        }
        if tell { links.onChange?(self) }
    }

    /// Whether anyone has streamed from it or sent it an input since it was made.
    var isUsed: Bool { activity.withLock { wasUsed } }

    /// Whether the session has had no subscriber and no request for `idle`,
    /// or for `unused` if nobody ever streamed from it or sent it an input.
    func isIdle(for idle: Duration, unused: Duration, now: ContinuousClock.Instant) -> Bool {
        activity.withLock { feeding == 0 && now - lastActive >= (wasUsed ? idle : unused) }
    }

    /// The number of subscriptions the session feeds.
    package var subscriberCount: Int { activity.withLock { feeding } }

    /// The current state.
    package func snapshot(_ completion: @escaping @Sendable (Result<Snapshot, BinderyError>) -> Void) {
        perform(answer: { [self] in makeSnapshot() }, completion: completion)
    }

    /// Every driver's value; for an input's answer (`forInput`), all but the
    /// keyed lists', which the input's changes reach the streams as: a change
    /// costs what it changes, and a client that wants the whole list asks.
    private func makeSnapshot(forInput: Bool = false) -> Snapshot {
        assertInTurn()
        return broadcast.withLog { log in
            let events = forInput ? log.snapshot(excluding: sentVersions) : log.snapshot
            return Snapshot(sessionID: id, viewModel: viewModelName, lastEventID: log.lastID, outputs: events.map { ($0.name, $0.json) })
        }
    }

    /// Sends one input and, in the same turn, once its synchronous effects are
    /// applied, takes the snapshot: no other input lands in between. If its
    /// work took holds on the answer (`AnswerHold`), the snapshot is taken in
    /// a turn after the last is released, and other turns may run meanwhile.
    ///
    /// An input sent with a client's `key` (`Idempotency-Key`) is applied once:
    /// a repeat is answered as the first was (a success with the snapshot as
    /// it is now), or with the first's answer once it comes, and the same key
    /// with another input or payload is refused (`InputKeys`). A durable write
    /// the input makes records the key in its own transaction (`InputReceipt`),
    /// so that the database refuses to apply it twice where this session no
    /// longer remembers it (made again after a crash); such a repeat is answered
    /// as one.
    ///
    /// `countsAsUse` false: the server itself sends it (a page's start inputs for its
    /// first paint), so a session nobody went on to use still idles out as unused.
    package func send(
        input name: String, payload: Data, key: String? = nil, countsAsUse: Bool = true,
        completion: @escaping @Sendable (Result<Snapshot, BinderyError>) -> Void
    ) {
        if countsAsUse { activity.withLock { wasUsed = true } }
        if let forward {
            touch()
            return forward(name, payload, completion)
        }
        // What the input asks of its browser (`BrowserSignIn`), carried by its answer.
        let browser = BrowserIntents()
        guard let key else {
            return perform(
                { [self] in
                    guard let ports else { throw BinderyError(.unknownSession, "session \(id) was disposed") }
                    inputTurn.browser = browser
                    transcript?.record(.input(name: name, payload: payload))
                    try ports.send(name, payload: payload)
                },
                input: inputTurn,
                answer: { [self] in
                    var snapshot = makeSnapshot(forInput: true)
                    let asked = browser.answer
                    snapshot.browser = asked.intent
                    snapshot.location = asked.location
                    return snapshot
                }, completion: completion)
        }
        let admitted = Admitted()
        perform(
            { [self] in
                guard let ports else { throw BinderyError(.unknownSession, "session \(id) was disposed") }
                inputTurn.browser = browser
                admitted.admission = inputKeys.admit(key, fingerprint: InputKeys.fingerprint(name, UploadPayload.identity(of: payload)), completion: completion)
                switch admitted.admission {
                case .apply:
                    inputTurn.key = (id, key)
                    transcript?.record(.input(name: name, payload: payload))
                    try ports.send(name, payload: payload)
                case .reused:
                    throw BinderyError(.idempotencyKeyReused, "this Idempotency-Key was sent before with another input or payload")
                case .join, .replay:
                    break
                }
            }, input: inputTurn,
            answer: { [self] in
                if case .replay(.failed(let error)) = admitted.admission { throw error }
                if case .replay(.running(let error)) = admitted.admission { throw error }
                var snapshot = makeSnapshot(forInput: true)
                if case .replay = admitted.admission { snapshot.isReplay = true }
                let asked = browser.answer
                snapshot.browser = asked.intent
                snapshot.location = asked.location
                return snapshot
            },
            endedLate: { [self] failure in inputKeys.ended(key, failure: failure) },
            completion: { [self] result in
                switch admitted.admission {
                case .join:
                    return  // answered with the first
                case .apply:
                    inputKeys.answered(key, result)
                case .replay, .reused:
                    break
                }
                completion(result)
            })
    }

    /// The current value of driver `name` as JSON, or nil before it has one.
    package func value(ofOutput name: String, completion: @escaping @Sendable (Result<Data?, BinderyError>) -> Void) {
        perform(
            answer: { [self] in
                // A replica has no ports: an output it has a value of is a driver.
                guard let kind = ports?.kind(of: name) ?? (forward != nil && broadcast.withLog({ $0.latest(name) }) != nil ? .driver : nil) else {
                    throw BinderyError(.unknownOutput, "\(viewModelName) has no output '\(name)'")
                }
                guard kind == .driver else {
                    throw BinderyError(.unknownOutput, "'\(name)' is a signal: it has no current value; subscribe to the event stream")
                }
                return broadcast.withLog { $0.latest(name)?.json }
            }, completion: completion)
    }

    /// A feed of what the client missed after `lastEventID` (or everything
    /// current when nil), then live events, each item after `itemPrefix`.
    /// Fails if the session is gone or full.
    package func subscribe(lastEventID: UInt64?, itemPrefix: [UInt8] = [], completion: @escaping @Sendable (Result<Subscription, BinderyError>) -> Void) {
        perform(
            answer: { [self] in
                guard subscribers.count < limits.maxStreamsPerSession else {
                    throw BinderyError(.limitReached, "session \(id) already has \(limits.maxStreamsPerSession) streams")
                }
                let initial = broadcast.withLog { log -> [Subscription.Item] in
                    switch lastEventID.map(log.replay(after:)) ?? .events(log.snapshot) {
                    case .events(let events):
                        return events.map(Subscription.Item.event)
                    case .reset(let events):
                        return [.reset(lastEventID: log.lastID)] + events.map(Subscription.Item.event)
                    }
                }
                let subscription = broadcast.subscribe(initial: initial, itemPrefix: itemPrefix) { [weak self] subscription in
                    self?.scheduler.async { self?.remove(ObjectIdentifier(subscription)) }
                }
                subscribers[ObjectIdentifier(subscription)] = subscription
                activity.withLock {
                    feeding += 1
                    wasUsed = true
                }
                return subscription
            }, completion: completion)
    }

    private func remove(_ key: ObjectIdentifier) {
        assertInTurn()
        guard subscribers.removeValue(forKey: key) != nil else { return }
        activity.withLock {
            feeding -= 1
            lastActive = .now
        }
    }

    // MARK: A replica of a session another process runs (a cluster's shared session)

    /// Appends `events` (the owner's, in order) in a turn; `completion(false)`
    /// if they do not follow this replica's last one (it must be seeded again).
    package func replicate(_ events: [ReplicatedEvent], completion: @escaping @Sendable (Bool) -> Void) {
        scheduler.async { [self] in
            guard !isDisposed else { return completion(true) }
            broadcast.holdWakes()
            defer { broadcast.releaseWakes() }
            for event in events {
                guard event.id == broadcast.withLog({ $0.lastID }) + 1 else { return completion(false) }
                _ = broadcast.publish(name: event.name, kind: event.kind, json: event.json, whole: event.whole.map { whole in { whole } })
            }
            completion(true)
        }
    }

    /// Starts the replica again from `values` (every driver's latest value,
    /// whole) as they stand at `lastID`, in a turn: its readers that read an
    /// earlier id get a reset and the snapshot.
    package func reseed(_ values: [(name: String, json: Data)], through lastID: UInt64, completion: (@Sendable () -> Void)? = nil) {
        scheduler.async { [self] in
            guard !isDisposed else { return }
            broadcast.seed(values, through: lastID)
            completion?()
        }
    }

    /// The answer to an input forwarded from here, in a turn after the events
    /// replicated before it: every driver but the keyed lists, as `send` answers.
    package func inputAnswer(_ completion: @escaping @Sendable (Result<Snapshot, BinderyError>) -> Void) {
        perform(answer: { [self] in makeSnapshot(forInput: true) }, completion: completion)
    }

    /// The id of the last event, read in a turn.
    package func lastEventID(_ completion: @escaping @Sendable (UInt64) -> Void) {
        scheduler.async { [self] in completion(broadcast.withLog { $0.lastID }) }
    }

    /// The session as its store keeps it, captured in a turn; nil if it is
    /// not kept or was disposed.
    package func capture(_ completion: @escaping @Sendable (StoredSession?) -> Void) {
        scheduler.async { [self] in completion(isDisposed ? nil : record(stoppedCleanly: false)) }
    }

    /// Captures the session exactly as it stops, and disposes it, in one turn:
    /// nothing happens to it in between. A request that found it before gets
    /// `BinderyError.Code.retired`, and looks for it again.
    func retire(_ completion: @escaping @Sendable (StoredSession?) -> Void) {
        scheduler.async { [self] in
            let record = isDisposed ? nil : record(stoppedCleanly: true)
            isRetired = true
            disposeNow()
            completion(record)
        }
    }

    private func record(stoppedCleanly: Bool) -> StoredSession? {
        assertInTurn()
        guard let origin else { return nil }
        let stateJSON: Data?
        do {
            stateJSON = try state.flatMap { $0.isEmpty ? nil : try $0.capture() }
        } catch {
            limits.logger.error("session state not saved", metadata: ["session": "\(id)", "error": "\(error)"])
            return nil
        }
        let idle: Duration = activity.withLock { feeding > 0 ? .zero : ContinuousClock.now - lastActive }
        let lastEventID = broadcast.withLog { $0.lastID }
        return StoredSession(
            id: id, viewModel: viewModelName, isShared: origin.isShared, parameters: origin.parameters, client: client, owner: owner,
            identity: origin.identity, createdAt: origin.createdAt, lastSeen: Date().addingTimeInterval(-Double(idle.components.seconds)),
            state: stateJSON, lastEventID: lastEventID, stoppedCleanly: stoppedCleanly, inputKeys: try? inputKeys.capture())
    }

    /// Disposes the ViewModel in a turn; every subscription ends with `.end`.
    package func dispose(completion: (@Sendable () -> Void)? = nil) {
        scheduler.async { [self] in
            disposeNow()
            completion?()
        }
    }

    /// Lets go of the session because another process claimed it (a
    /// cluster's node that its requests reach now): disposed in a turn without
    /// being saved, and its streams end without `bindery.end`, so that their
    /// clients reconnect and reach it there. A request that found it before
    /// looks for it again (`BinderyError.Code.retired`).
    func relinquish(completion: (@Sendable () -> Void)? = nil) {
        scheduler.async { [self] in
            isRetired = true
            disposeNow(moved: true)
            completion?()
        }
    }

    private func disposeNow(moved: Bool = false) {
        assertInTurn()
        guard !isDisposed else { return }
        isDisposed = true
        subscription?.dispose()
        subscription = nil
        ports = nil
        state = nil
        broadcast.finish(moved: moved)
        subscribers = [:]
        activity.withLock { feeding = 0 }
    }
}

/// What a session's key book said of an input (`InputKeys.Admission`), from
/// the input's turn to its answer's. Confined to the session's turns.
private final class Admitted: @unchecked Sendable {
    var admission = InputKeys.Admission.apply
}

/// An event of a session as its owner hands it to the replicas in other
/// processes: its id, output, kind, JSON (for a keyed list's change, the
/// changes) and, for a change, the whole value as well.
package struct ReplicatedEvent: Sendable, Equatable {
    package let id: UInt64
    package let name: String
    package let kind: OutputKind
    package let json: Data
    package let whole: Data?

    package init(id: UInt64, name: String, kind: OutputKind, json: Data, whole: Data?) {
        self.id = id
        self.name = name
        self.kind = kind
        self.json = json
        self.whole = whole
    }
}

/// What a kept session was made from, for its store.
package struct SessionOrigin: Sendable {
    /// Whether it is its ViewModel's one shared session.
    let isShared: Bool
    /// The creation parameters, as sent.
    let parameters: Data
    /// Who asked for it.
    let identity: Identity?
    /// When it was first made.
    let createdAt: Date
}
