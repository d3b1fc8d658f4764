import Foundation
import Logging

/// The Bindery runtime: the registry of ViewModels, their live sessions and the catalog.
///
/// Thread safety: every method may be called from any thread, and none waits
/// for a session: work that needs one is queued on it and answered through a
/// completion, called from the session's turn.
public final class Application: @unchecked Sendable {
    /// The limits in force.
    public let configuration: RuntimeConfiguration
    /// What the ViewModels need from outside, handed to every factory.
    public let services = Services()
    /// What keeps the process from serving as it should (`/readyz`).
    public let readiness = Readiness()
    /// How subscriptions write their items, each event encoded once when a
    /// session publishes it: given by whoever serves the application
    /// (`BinderyApp`: server-sent events).
    package let wireFormat: EventWireFormat
    /// Where a session is served (`/api/<vm>/<sid>`), for child references:
    /// given by whoever serves the application; nil, and references have no URL, otherwise.
    package let sessionURL: (@Sendable (_ viewModel: String, _ id: String) -> String)?
    /// The events the sessions have published, for the server's metrics.
    package let published = PublicationCount()
    /// Names no ViewModel may take, with why: those the server's own routes use.
    private let reservedNames: [String: String]
    private let lock = NSLock()
    // Guarded by `lock`.
    private var definitions: [String: ViewModelDefinition] = [:]
    private var order: [String] = []
    private var namesByType: [ObjectIdentifier: String] = [:]
    private var sessions: [String: Session] = [:]
    private var sharedSessions: [String: Session] = [:]
    /// Live sessions made for each client.
    private var sessionsByClient: [String: Int] = [:]
    /// Where sessions are kept so that they outlive the process, if they are (`keepSessions(in:)`).
    private var archive: SessionArchive?
    /// Where the browsers' sign-ins are kept (`keepSignIns`).
    let signInStore = Locked<(any SignInStore)?>(nil)
    /// Who runs the shared sessions across a cluster's processes, if anyone (`hostSharedSessions`).
    private var sharedHost: SharedSessionHost?
    /// Requests for sessions being made again from the store, by id.
    private var restoring: [String: [@Sendable (Result<Session, BinderyError>) -> Void]] = [:]
    /// Requests for shared sessions being looked for in the store, by ViewModel.
    private var pendingShared: [String: [@Sendable (Result<Session, BinderyError>) -> Void]] = [:]
    private var cachedCatalog: Catalog?
    /// Bumped by every registration, so a probe that raced one is not cached.
    private var registrations = 0
    private var reaper: DispatchSourceTimer?

    /// A runtime with `configuration`. Its streams are lines of JSON until a
    /// server makes it with the format it writes (`package` init).
    public convenience init(configuration: RuntimeConfiguration = .init()) {
        self.init(configuration: configuration, wireFormat: .jsonLines)
    }

    /// A runtime with `configuration` whose streams are written in
    /// `wireFormat`, where no ViewModel may be named as a key of
    /// `reservedNames` (its value says why).
    package init(
        configuration: RuntimeConfiguration, wireFormat: EventWireFormat, reservedNames: [String: String] = [:],
        sessionURL: (@Sendable (_ viewModel: String, _ id: String) -> String)? = nil
    ) {
        self.configuration = configuration
        self.wireFormat = wireFormat
        self.sessionURL = sessionURL
        self.reservedNames = reservedNames
    }

    /// Registers a ViewModel of `type` under `name`, made per session by `make`:
    /// what every `register` (`ViewModelRegistry`'s) comes down to.
    public func register(
        _ name: String, type: Any.Type, shared: Bool, summary: String?, outputs: [String: OutputKind],
        makeAny make: @escaping @Sendable (ViewModelContext) throws -> Any
    ) {
        if let why = reservedNames[name] { preconditionFailure("ViewModel name '\(name)' is reserved: \(why)") }
        precondition(Self.isValidName(name), "ViewModel name '\(name)' must be 1–64 ASCII letters, digits, - or _")
        lock.withLock {
            precondition(definitions[name] == nil, "ViewModel '\(name)' is registered twice")
            definitions[name] = ViewModelDefinition(name: name, isShared: shared, summary: summary, declaredOutputs: outputs, make: { try make($0) })
            order.append(name)
            registrations += 1
            namesByType[ObjectIdentifier(type)] = namesByType[ObjectIdentifier(type)] ?? name
            cachedCatalog = nil
        }
    }

    /// Whether `name` can name a ViewModel: 1–64 ASCII letters, digits, `-` or `_`.
    package static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && URLSafeName.allows(name)
    }

    /// Whether `name` is a registered ViewModel.
    public func isRegistered(_ name: String) -> Bool { lock.withLock { definitions[name] != nil } }

    /// Keeps the sessions in `store` so that they outlive this process: their
    /// declared state (`SessionRelay`) is saved a moment after it changes,
    /// and a session asked for that no process holds is made again from it.
    /// Call before serving.
    package func keepSessions(in store: SessionStore) {
        lock.withLock {
            precondition(archive == nil, "the application already keeps its sessions")
            let archive = SessionArchive(store: store, configuration: configuration)
            archive.onTaken = { [weak self] ids in ids.forEach { self?.relinquish(sessionID: $0) } }
            self.archive = archive
        }
    }

    /// Runs the app's shared sessions through `host` (a cluster: one process
    /// owns each, the others replicate it): a request for one is answered by
    /// this process's replica. Call before serving.
    package func hostSharedSessions(_ host: SharedSessionHost) {
        lock.withLock { sharedHost = host }
    }

    /// Whether `viewModel` is registered as shared.
    package func isShared(_ viewModel: String) -> Bool {
        lock.withLock { definitions[viewModel]?.isShared ?? false }
    }

    /// A replica of shared session `id` of `viewModel`, in the live table (it
    /// replaces one there), counted for nobody and answering anyone; its
    /// inputs go to `forward`. Its log is empty until the host seeds it.
    package func addReplica(
        _ viewModel: String, id: String,
        forward: @escaping @Sendable (_ input: String, _ payload: Data, _ completion: @escaping @Sendable (Result<Snapshot, BinderyError>) -> Void) -> Void
    ) throws -> Session {
        try lock.withLock {
            if let old = sessions.removeValue(forKey: id) { old.dispose() }
            return try addSessionLocked(viewModel, id: id, client: nil, owner: nil, role: .replica(forward: forward))
        }
    }

    /// The owning instance of shared session `id` of `viewModel`, for a
    /// cluster's host: made by the factory (with `resuming`'s declared state),
    /// its events numbered after `resuming`'s last id (plus the restart gap)
    /// and handed to `tap`, in no table: requests reach it only through the
    /// host, and only the host saves it.
    package func makeOwner(
        _ viewModel: String, id: String, resuming: StoredSession?, tap: @escaping @Sendable (ReplicatedEvent) -> Void,
        completion: @escaping @Sendable (Result<Session, BinderyError>) -> Void
    ) {
        let definition: ViewModelDefinition
        do {
            definition = try self.definition(viewModel)
        } catch {
            return completion(.failure(error as? BinderyError ?? BinderyError(.unknownViewModel, "\(error)")))
        }
        let parameters = resuming?.parameters ?? Data()
        let origin = SessionOrigin(isShared: true, parameters: parameters, identity: nil, createdAt: resuming?.createdAt ?? Date())
        let session = Session(
            id: id, viewModelName: viewModel, client: nil, owner: nil, origin: origin, role: .owner(tap: tap), limits: configuration,
            scheduler: SerialScheduler(label: "bindery.session.\(viewModel).owner", pool: configuration.executors), format: wireFormat)
        let context = ViewModelContext(sessionID: id, parameters: parameters, services: services, identity: nil)
        session.start(declaredOutputs: definition.declaredOutputs, resuming: resuming, { try definition.make(context) }) { result in
            if case .failure = result { session.dispose() }
            completion(result.map { session })
        }
    }

    /// Lets go of live session `id` because another process claimed it (a
    /// cluster's node its requests reach now): it is not saved from here, and
    /// its streams end without `bindery.end`, so that their clients reconnect
    /// and reach it there. Nothing if this process does not hold it.
    package func relinquish(sessionID id: String) {
        guard let session = lock.withLock({ sessions[id] }) else { return }
        archiveLocked()?.forget(session)
        forget(session)
        log(session, "session let go: another process claimed it", reason: "claimed")
        session.relinquish()
    }

    /// A `SessionRelay` of the app's own, kept under `key` where the app keeps
    /// its sessions: state a service holds for every session (the example
    /// `UserService`'s users), saved with the sessions and given back after a
    /// restart. Elsewhere, a plain relay holding `value`. Call before serving:
    /// it reads the store now.
    public func keptRelay<Element: Codable>(_ key: String, value: Element) -> SessionRelay<Element> {
        guard let archive = archiveLocked() else { return SessionRelay(value: value) }
        let stored = archive.storedValue(key: key)
        let changed: @Sendable () -> Void = { [weak archive] in archive?.valueChanged(key) }
        let state = SessionState(restoring: stored, onChange: changed)
        let relay = SessionState.$current.withValue(state) { SessionRelay(value: value) }
        if stored != nil, !state.isRestored {
            configuration.logger.warning("kept value does not fit its relay: starts again", metadata: ["key": "\(key)"])
        }
        archive.keep(value: state, as: key)
        return relay
    }

    /// Creates a session of `viewModel` (or joins the shared one) with creation
    /// `parameters`, for `client` (counted against its share), answering only
    /// `owner` besides its id, and made for `identity` (the factory's
    /// context); a shared session counts for nobody and answers anyone.
    /// `completion` runs once its ViewModel is made and bound. A session that
    /// is not shared takes the id `preferredID` if no session, live or stored,
    /// has it (a cluster's proxy names it, to route by it); else one made here.
    package func createSession(
        _ viewModel: String, parameters: Data = Data(), client: String? = nil, owner: SessionOwner? = nil,
        identity: Identity? = nil, preferredID: String? = nil, completion: @escaping @Sendable (Result<Session, BinderyError>) -> Void
    ) {
        let definition: ViewModelDefinition
        do {
            definition = try self.definition(viewModel)
            try ViewModelContext.validate(parameters)
        } catch {
            return completion(.failure(error as? BinderyError ?? BinderyError(.viewModelFailed, "\(error)")))
        }
        if definition.isShared, let host = lock.withLock({ sharedHost }) { return host.replica(of: viewModel, completion: completion) }
        guard definition.isShared else {
            guard let preferredID, SessionID.isValid(preferredID) else {
                return make(definition, parameters: parameters, client: client, owner: owner, identity: identity, completion: completion)
            }
            let (live, archive) = lock.withLock { (sessions[preferredID] != nil || restoring[preferredID] != nil, self.archive) }
            @Sendable func makeOne(taking taken: Bool) {
                if taken {
                    configuration.logger.notice(
                        "session id asked for is taken: made another", metadata: ["view_model": "\(viewModel)", "session": "\(preferredID)"])
                }
                make(
                    definition, parameters: parameters, client: client, owner: owner, identity: identity, id: taken ? nil : preferredID,
                    completion: completion)
            }
            guard !live, let archive else { return makeOne(taking: live) }
            // A stored session keeps its id: a new one must not replace it in the store.
            return archive.isKnown(id: preferredID) { known in makeOne(taking: (try? known.get()) ?? true) }
        }
        enum Next {
            case join(Session)
            case wait
            case lookUp(SessionArchive?)
        }
        let next = lock.withLock { () -> Next in
            if let existing = sharedSessions[viewModel] { return .join(existing) }
            if pendingShared[viewModel] != nil {
                pendingShared[viewModel]!.append(completion)
                return .wait
            }
            pendingShared[viewModel] = [completion]
            return .lookUp(archive)
        }
        switch next {
        case .join(let session):
            // A shared session's later clients queue behind its start, so they see it started (or gone).
            session.snapshot { result in completion(result.map { _ in session }) }
        case .wait:
            return
        case .lookUp(let archive):
            let finish: @Sendable (Result<Session, BinderyError>) -> Void = { [self] result in
                lock.withLock { pendingShared.removeValue(forKey: viewModel) ?? [] }.forEach { $0(result) }
            }
            guard let archive else { return make(definition, parameters: parameters, completion: finish) }
            // The shared session may be stored, under the id its clients know.
            archive.claimShared(viewModel: viewModel) { [self] claimed in
                switch claimed {
                case .failure(let error): finish(.failure(error))
                case .success(let record?): rebuild(record, definition, completion: finish)
                case .success(nil): make(definition, parameters: parameters, completion: finish)
                }
            }
        }
    }

    /// The session `id` of `viewModel`: the live one, or, where the app keeps
    /// its sessions, the stored one made again here as it was. `completion`
    /// may run before this returns (a live session) or later, on any thread.
    package func findSession(_ viewModel: String, id: String, completion: @escaping @Sendable (Result<Session, BinderyError>) -> Void) {
        let definition: ViewModelDefinition
        do {
            definition = try self.definition(viewModel)
        } catch {
            return completion(.failure(error as? BinderyError ?? BinderyError(.unknownViewModel, "\(error)")))
        }
        @Sendable func unknown() -> BinderyError { BinderyError(.unknownSession, "no session '\(id)' of \(viewModel)") }
        // Another request may be making the same id again for another ViewModel's name.
        @Sendable func answer(_ result: Result<Session, BinderyError>) {
            completion(result.flatMap { $0.viewModelName == viewModel ? .success($0) : .failure(unknown()) })
        }
        enum Next {
            case found(Session)
            case missing
            case wait
            case claim(SessionArchive)
        }
        if definition.isShared, let host = lock.withLock({ sessions[id] == nil ? sharedHost : nil }) {
            // A cluster's shared session: this process's replica of it, under the id the cluster gave it.
            return host.replica(of: viewModel) { result in completion(result.flatMap { $0.id == id ? .success($0) : .failure(unknown()) }) }
        }
        let next = lock.withLock { () -> Next in
            if let session = sessions[id] { return .found(session) }
            guard let archive else { return .missing }
            if restoring[id] != nil {
                restoring[id]!.append(answer)
                return .wait
            }
            restoring[id] = [answer]
            return .claim(archive)
        }
        switch next {
        case .found(let session): answer(.success(session))
        case .missing: completion(.failure(unknown()))
        case .wait: return
        case .claim(let archive):
            let finish: @Sendable (Result<Session, BinderyError>) -> Void = { [self] result in
                lock.withLock { restoring.removeValue(forKey: id) ?? [] }.forEach { $0(result) }
            }
            archive.claim(id: id, viewModel: viewModel) { [self] claimed in
                switch claimed {
                case .failure(let error): finish(.failure(error))
                case .success(nil): finish(.failure(unknown()))
                case .success(let record?): rebuild(record, definition, completion: finish)
                }
            }
        }
    }

    /// A new session of `definition`, made by its factory, with `id` if no
    /// live session has it (else with a new id).
    private func make(
        _ definition: ViewModelDefinition, parameters: Data, client: String? = nil, owner: SessionOwner? = nil, identity: Identity? = nil,
        id: String? = nil, completion: @escaping @Sendable (Result<Session, BinderyError>) -> Void
    ) {
        let session: Session
        do {
            session = try lock.withLock {
                let origin = archive.map { _ in
                    SessionOrigin(isShared: definition.isShared, parameters: parameters, identity: identity, createdAt: Date())
                }
                let free = id.map { sessions[$0] == nil && restoring[$0] == nil } ?? false
                let session = try addSessionLocked(definition.name, id: free ? id : nil, client: client, owner: owner, origin: origin)
                if definition.isShared { sharedSessions[definition.name] = session }
                return session
            }
        } catch {
            return completion(.failure(error as? BinderyError ?? BinderyError(.viewModelFailed, "\(error)")))
        }
        let context = ViewModelContext(sessionID: session.id, parameters: parameters, services: services, identity: identity, client: client)
        start(session, definition, context: context, resuming: nil, completion: completion)
    }

    /// The stored session `record` of `definition`, made again here by its
    /// factory from its parameters and identity, with its declared state.
    private func rebuild(_ record: StoredSession, _ definition: ViewModelDefinition, completion: @escaping @Sendable (Result<Session, BinderyError>) -> Void) {
        let made: (session: Session, isNew: Bool)
        do {
            made = try lock.withLock {
                // Made meanwhile through its other name (a shared session asked for by id and by creation).
                if let live = sessions[record.id] { return (live, false) }
                let origin = SessionOrigin(isShared: record.isShared, parameters: record.parameters, identity: record.identity, createdAt: record.createdAt)
                let session = try addSessionLocked(definition.name, id: record.id, client: record.client, owner: record.owner, origin: origin)
                if record.isShared { sharedSessions[definition.name] = session }
                return (session, true)
            }
        } catch {
            return completion(.failure(error as? BinderyError ?? BinderyError(.viewModelFailed, "\(error)")))
        }
        guard made.isNew else { return made.session.snapshot { result in completion(result.map { _ in made.session }) } }
        let context = ViewModelContext(sessionID: record.id, parameters: record.parameters, services: services, identity: record.identity)
        start(made.session, definition, context: context, resuming: record, completion: completion)
    }

    /// Makes the ViewModel of `session` in its first turn (from `resuming`'s state if it is rebuilt).
    private func start(
        _ session: Session, _ definition: ViewModelDefinition, context: ViewModelContext, resuming: StoredSession?,
        completion: @escaping @Sendable (Result<Session, BinderyError>) -> Void
    ) {
        session.start(declaredOutputs: definition.declaredOutputs, resuming: resuming, { try definition.make(context) }) { [self] result in
            switch result {
            case .success:
                configuration.logger.info(
                    resuming == nil ? "session created" : "session rebuilt from its store",
                    metadata: ["view_model": "\(definition.name)", "session": "\(session.id)"])
                completion(.success(session))
            case .failure(let error):
                configuration.logger.notice("session not created", metadata: ["view_model": "\(definition.name)", "error": "\(error.message)"])
                // One that fails halfway is disposed: no subscription it made lives on. A
                // stored one stays stored: what failed now (a service) may work later.
                forget(session)
                session.dispose()
                completion(.failure(error))
            }
        }
    }

    /// A new session of `viewModel` (with `id`, or a new one) for `client` on
    /// `scheduler` (a new one by default), counted against the limits; call with `lock` held.
    private func addSessionLocked(
        _ viewModel: String, id: String? = nil, client: String?, owner: SessionOwner?, origin: SessionOrigin? = nil,
        role: Session.Role = .own, on scheduler: SerialScheduler? = nil
    ) throws -> Session {
        if let client, sessionsByClient[client, default: 0] >= configuration.maxSessionsPerClient {
            throw BinderyError(.tooManySessions, "this client already has \(configuration.maxSessionsPerClient) sessions; delete one or let one idle out")
        }
        guard sessions.count < configuration.maxSessions else {
            throw BinderyError(.limitReached, "the server already runs \(configuration.maxSessions) sessions")
        }
        if let client { sessionsByClient[client, default: 0] += 1 }
        // Saved only if kept.
        var onChange: (@Sendable (Session) -> Void)?
        if origin != nil, let archive { onChange = { [weak archive] in archive?.changed($0) } }
        let links = Session.Links(
            spawn: { [weak self] child, scheduler in
                guard let self else { throw BinderyError(.viewModelFailed, "the application is gone") }
                return try self.startChild(child, for: client, owner: owner, on: scheduler)
            },
            sessionURL: sessionURL, onChange: onChange)
        let session = Session(
            id: id ?? SessionID.make(), viewModelName: viewModel, client: client, owner: owner, origin: origin, role: role, links: links,
            limits: configuration, scheduler: scheduler ?? SerialScheduler(label: "bindery.session.\(viewModel)", pool: configuration.executors),
            format: wireFormat, published: published)
        sessions[session.id] = session
        return session
    }

    /// Starts a session for a ViewModel an output emitted (navigation to a
    /// child), for its parent's `client` and `owner`, on its parent's
    /// `scheduler`: its id is known at once, and requests to it queue behind its start.
    private func startChild(_ viewModel: AnyObject, for client: String?, owner: SessionOwner?, on scheduler: SerialScheduler) throws -> Session {
        guard let name = name(of: type(of: viewModel)) else {
            throw BinderyError(.viewModelFailed, "\(type(of: viewModel)) is not registered; register it to navigate to it")
        }
        let (session, declaredOutputs) = try lock.withLock {
            (try addSessionLocked(name, client: client, owner: owner, on: scheduler), definitions[name]?.declaredOutputs ?? [:])
        }
        nonisolated(unsafe) let child = viewModel  // handed to the child's turn, never used here again
        session.start(declaredOutputs: declaredOutputs, { child }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                configuration.logger.info("session created", metadata: ["view_model": "\(name)", "session": "\(session.id)", "child": "true"])
            case .failure(let error):
                configuration.logger.error("child session not started", metadata: ["view_model": "\(name)", "session": "\(session.id)", "error": "\(error)"])
                forget(session)
                session.dispose()
            }
        }
        return session
    }

    /// The registered name of ViewModel type `type`.
    func name(of type: Any.Type) -> String? {
        lock.withLock { namesByType[ObjectIdentifier(type)] }
    }

    /// The live session `id` of `viewModel` (not one only stored: `findSession`).
    package func session(_ viewModel: String, id: String) throws -> Session {
        guard let session = try liveSession(viewModel, id: id) else { throw BinderyError(.unknownSession, "no session '\(id)' of \(viewModel)") }
        return session
    }

    /// The live session `id` of `viewModel`, nil if this process does not hold
    /// it; throws if `viewModel` is not registered, or `id` is another's.
    package func liveSession(_ viewModel: String, id: String) throws -> Session? {
        _ = try definition(viewModel)
        guard let session = lock.withLock({ sessions[id] }) else { return nil }
        guard session.viewModelName == viewModel else { throw BinderyError(.unknownSession, "no session '\(id)' of \(viewModel)") }
        return session
    }

    /// Disposes `session`, and deletes it from the store; its subscriptions end with `.end`.
    package func disposeSession(_ session: Session) {
        archiveLocked()?.delete(session)
        forget(session)
        log(session, "session disposed", reason: "deleted")
        session.dispose()
    }

    private func archiveLocked() -> SessionArchive? { lock.withLock { archive } }

    /// Takes `session` out of the live table (it is found no more: in the store, or nowhere).
    private func forget(_ session: Session) {
        lock.withLock {
            if sessions[session.id] === session {
                sessions[session.id] = nil
                if let client = session.client {
                    let left = sessionsByClient[client, default: 1] - 1
                    sessionsByClient[client] = left > 0 ? left : nil
                }
            }
            if sharedSessions[session.viewModelName] === session { sharedSessions[session.viewModelName] = nil }
        }
    }

    private func log(_ session: Session, _ message: Logger.Message, reason: String) {
        configuration.logger.info(
            message, metadata: ["view_model": "\(session.viewModelName)", "session": "\(session.id)", "reason": "\(reason)"])
    }

    /// Lets `session` go to the store: captured as it stops and disposed in
    /// one turn, held by the archive until written, then out of the live table.
    private func retire(_ session: Session, to archive: SessionArchive, reason: String) {
        session.retire { [self] record in
            if let record { archive.keep(record) }
            forget(session)
            log(session, "session let go to its store", reason: reason)
        }
    }

    /// The number of live sessions of each registered ViewModel.
    /// The live sessions `matching` picks.
    func liveSessions(where matching: (Session) -> Bool) -> [Session] {
        lock.withLock { sessions.values.filter(matching) }
    }

    package var sessionCounts: [String: Int] {
        lock.withLock {
            var counts = Dictionary(uniqueKeysWithValues: order.map { ($0, 0) })
            for session in sessions.values { counts[session.viewModelName, default: 0] += 1 }
            return counts
        }
    }

    /// The number of live sessions.
    public var sessionCount: Int { lock.withLock { sessions.count } }

    /// Lets go of sessions idle longer than the configured timeout; returns
    /// how many. Where the app keeps sessions, one that was used goes to the
    /// store (and is made again when asked for); one never used is deleted.
    @discardableResult
    package func disposeIdleSessions(now: ContinuousClock.Instant = .now) -> Int {
        let (all, kept) = lock.withLock { () -> ([Session], SessionArchive?) in (Array(sessions.values), archive) }
        let idle = all.filter { $0.isIdle(for: configuration.sessionIdleTimeout, unused: configuration.unusedSessionTimeout, now: now) }
        if kept != nil { all.forEach { $0.markSeenIfStreamed() } }
        for session in idle {
            if let kept, session.origin != nil, session.isUsed {
                retire(session, to: kept, reason: "idle")
            } else {
                if session.origin != nil { kept?.delete(session) }
                forget(session)
                log(session, "session disposed", reason: "idle")
                session.dispose()
            }
        }
        return idle.count
    }

    /// Checks for idle sessions every `interval`, and saves the sessions that
    /// changed to the store (if the app keeps them), until `stop()`.
    package func startIdleReaper(every interval: Duration = .seconds(30)) {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let nanos = Int(interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanos), repeating: .nanoseconds(nanos))
        timer.setEventHandler { [weak self] in self?.disposeIdleSessions() }
        timer.resume()
        let kept = lock.withLock { () -> SessionArchive? in
            reaper = timer
            return archive
        }
        kept?.start()
    }

    /// Sessions in the store at its last sweep (0 if the app keeps none).
    package var storedSessionCount: Int { archiveLocked()?.storedCount ?? 0 }

    /// Sessions made again from the store since the start.
    package var rebuiltSessionCount: UInt64 { archiveLocked()?.rebuiltCount ?? 0 }

    /// Saves every session that changed and waits until it is written (tests).
    package func saveSessions() { archiveLocked()?.flush() }

    /// Sweeps the store now: expired sessions out, and the count (tests).
    package func sweepStoredSessions(now: Date = Date(), waiting: Bool = true, completion: (@Sendable () -> Void)? = nil) {
        guard let archive = archiveLocked() else { return }
        let swept = DispatchSemaphore(value: 0)
        archive.sweep(now: now) {
            completion?()
            swept.signal()
        }
        if waiting { swept.wait() }
    }

    /// Disposes every session and stops the reaper, waiting at most `grace` for
    /// sessions busy in their ViewModel: one that never finishes must not keep
    /// the process from stopping. Where the app keeps sessions, each is saved
    /// as it stops, and all are written before this returns. Blocks the
    /// caller: call it from the thread that stops the process, never from a session's turn.
    public func stop(grace: Duration = .seconds(2)) {
        let (all, keeper) = lock.withLock { () -> ([Session], SessionArchive?) in
            reaper?.cancel()
            reaper = nil
            return (Array(sessions.values), archive)
        }
        let kept = keeper == nil ? [] : all.filter { $0.origin != nil }
        let others = keeper == nil ? all : all.filter { $0.origin == nil }
        let group = DispatchGroup()
        for session in others {
            group.enter()
            forget(session)
            log(session, "session disposed", reason: "shutdown")
            session.dispose { group.leave() }
        }
        if let keeper {
            keeper.retireAll(kept, grace: grace) { [self] session, _ in
                forget(session)
                log(session, "session let go to its store", reason: "shutdown")
            }
            configuration.logger.info("sessions saved", metadata: ["sessions": "\(kept.count)"])
        }
        let (seconds, attoseconds) = grace.components
        if group.wait(timeout: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))) == .timedOut {
            configuration.logger.warning("stopped with sessions still busy in their ViewModel")
        }
    }

    /// Every registered ViewModel with its inputs and outputs; `completion` runs
    /// at once if the catalog is known, else after probing the ViewModels in a
    /// turn of their own (a factory may take its time).
    package func catalog(_ completion: @escaping @Sendable (Catalog) -> Void) {
        if let cached = lock.withLock({ cachedCatalog }) { return completion(cached) }
        let (definitions, generation) = lock.withLock { (order.compactMap { self.definitions[$0] }, registrations) }
        let probe = SerialScheduler(label: "bindery.catalog", pool: configuration.executors)
        probe.async { [self] in
            let catalog = Catalog(viewModels: definitions.map { Catalog.Entry(probing: $0, services: services, nameOf: name(of:)) })
            lock.withLock { if registrations == generation { cachedCatalog = catalog } }
            completion(catalog)
        }
    }

    /// What stops the app from starting: each ViewModel whose shape no create can
    /// serve (an output that cannot be encoded, an input that cannot be decoded),
    /// with the ViewModel, the port and the type named. Empty when all is well.
    package func shapeProblems(_ completion: @escaping @Sendable ([String]) -> Void) {
        catalog { catalog in
            completion(catalog.viewModels.filter(\.isMisshapen).map { "ViewModel '\($0.name)': \($0.problem ?? "cannot be created")" })
        }
    }

    private func definition(_ name: String) throws -> ViewModelDefinition {
        guard let definition = lock.withLock({ definitions[name] }) else {
            throw BinderyError(.unknownViewModel, "no ViewModel named '\(name)'")
        }
        return definition
    }
}
