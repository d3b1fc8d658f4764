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
    /// The scheduler everything in the session runs on.
    let scheduler: SerialScheduler
    private let limits: RuntimeConfiguration

    // Confined to `scheduler`.
    /// The event log, shared with the subscriptions that read it.
    private let broadcast: Broadcast
    private var ports: ViewModelPorts?
    private var subscription: Disposable?
    private var subscribers: [ObjectIdentifier: Subscription] = [:]
    private var isDisposed = false

    // Read from any thread (the idle reaper).
    private let activity = NSLock()
    private var lastActive = ContinuousClock.now
    private var feeding = 0
    /// Whether anyone has streamed from it or sent it an input since it was made.
    private var wasUsed = false

    /// Makes a session, on this session's scheduler, for a ViewModel that an
    /// output emitted; set by the application.
    var spawn: (@Sendable (_ viewModel: AnyObject, _ scheduler: SerialScheduler) throws -> Session)?
    /// Where a session is served, for the child references this one sends; set by the application.
    var sessionURL: (@Sendable (_ viewModel: String, _ id: String) -> String)?

    /// A session running on `scheduler`: a new one for a session of its own, its
    /// parent's for a child (the child ViewModel was made in the parent's turn, so
    /// its drivers deliver there).
    init(
        id: String, viewModelName: String, client: String?, owner: SessionOwner?, limits: RuntimeConfiguration,
        scheduler: SerialScheduler, format: EventWireFormat, published: PublicationCount = PublicationCount()
    ) {
        self.id = id
        self.viewModelName = viewModelName
        self.client = client
        self.owner = owner
        self.limits = limits
        self.scheduler = scheduler
        broadcast = Broadcast(
            log: EventLog(retained: limits.retainedEvents, format: format), maxBufferedBytes: limits.streamBufferBytes,
            published: published)
    }

    /// Runs `work` in a turn and, once everything it caused inline has run,
    /// calls `completion` with what `answer` makes, in the same turn.
    private func perform<T>(
        _ work: @escaping () throws -> Void = {}, answer: @escaping () throws -> T, completion: @escaping @Sendable (Result<T, BinderyError>) -> Void
    ) {
        touch()
        var failure: BinderyError?  // confined to this turn
        scheduler.async(
            { [self] in
                broadcast.holdWakes()
                do {
                    guard !isDisposed else { throw BinderyError(.unknownSession, "session \(id) was disposed") }
                    try work()
                } catch {
                    failure = problem(error)
                }
            },
            then: { [self] in
                // The client that asked is answered before the readers of what its work published are woken.
                defer { broadcast.releaseWakes() }
                if let failure { return completion(.failure(failure)) }
                do {
                    completion(.success(try answer()))
                } catch {
                    completion(.failure(problem(error)))
                }
            })
    }

    private func problem(_ error: Error) -> BinderyError {
        error as? BinderyError ?? BinderyError(.viewModelFailed, "\(viewModelName): \(error)")
    }

    /// Makes the ViewModel with `make` and subscribes to its outputs, in the session's first turn.
    func start(declaredOutputs: [String: OutputKind], _ make: @escaping () throws -> Any, completion: @escaping @Sendable (Result<Void, BinderyError>) -> Void)
    {
        perform(
            { [self] in
                let viewModel: Any
                do {
                    viewModel = try make()
                } catch let error as BinderyError {
                    throw error
                } catch {
                    throw BinderyError(.viewModelFailed, "\(viewModelName) could not be created: \(error)")
                }
                let ports = try ViewModelPorts(viewModel, declaredOutputs: declaredOutputs)
                self.ports = ports
                subscription = try ports.subscribe(
                    { [weak self] name, kind, value in
                        self?.receive(value, from: name, kind: kind)
                    },
                    onError: { [weak self] name, error in
                        self?.limits.logger.error(
                            "output failed",
                            metadata: [
                                "session": "\(self?.id ?? "")", "output": "\(name)", "error": "\(error)",
                            ])
                    })
            }, answer: {}, completion: completion)
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
            case .viewModel(let viewModel):
                guard let spawn else { throw BinderyError(.viewModelFailed, "no application to start a child session") }
                let child = try spawn(viewModel, scheduler)
                json = try JSONEncoder.bindery.encode(
                    ChildReference(
                        viewModel: child.viewModelName, id: child.id,
                        url: sessionURL?(child.viewModelName, child.id)))
            }
            // Logged once for every subscription; the waiting readers are woken in
            // one burst, so the server's event loop serves them in a few passes
            // rather than one each (libmicrohttpd walks all suspended connections per pass).
            _ = broadcast.publish(name: name, kind: kind, json: json)
        } catch {
            limits.logger.error("output could not be sent", metadata: ["session": "\(id)", "output": "\(name)", "error": "\(error)"])
        }
    }

    /// Marks the session asked now (for idle expiry).
    func touch() { activity.withLock { lastActive = .now } }

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

    private func makeSnapshot() -> Snapshot {
        broadcast.withLog { log in
            Snapshot(
                sessionID: id, viewModel: viewModelName, lastEventID: log.lastID,
                outputs: log.snapshot.map { ($0.name, $0.json) })
        }
    }

    /// Sends one input and, in the same turn, once its synchronous effects are
    /// applied, takes the snapshot: no other input lands in between.
    package func send(input name: String, payload: Data, completion: @escaping @Sendable (Result<Snapshot, BinderyError>) -> Void) {
        activity.withLock { wasUsed = true }
        perform(
            { [self] in
                guard let ports else { throw BinderyError(.unknownSession, "session \(id) was disposed") }
                try ports.send(name, payload: payload)
            }, answer: { [self] in makeSnapshot() }, completion: completion)
    }

    /// The current value of driver `name` as JSON, or nil before it has one.
    package func value(ofOutput name: String, completion: @escaping @Sendable (Result<Data?, BinderyError>) -> Void) {
        perform(
            answer: { [self] in
                guard let kind = ports?.kind(of: name) else {
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
        guard subscribers.removeValue(forKey: key) != nil else { return }
        activity.withLock {
            feeding -= 1
            lastActive = .now
        }
    }

    /// Disposes the ViewModel in a turn; every subscription ends with `.end`.
    func dispose(completion: (@Sendable () -> Void)? = nil) {
        scheduler.async { [self] in
            disposeNow()
            completion?()
        }
    }

    private func disposeNow() {
        guard !isDisposed else { return }
        isDisposed = true
        subscription?.dispose()
        subscription = nil
        ports = nil
        broadcast.finish()
        subscribers = [:]
        activity.withLock { feeding = 0 }
    }
}
