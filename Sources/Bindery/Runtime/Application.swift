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

    /// Registers a ViewModel under `name`, made per session by `make`.
    ///
    /// - Parameters:
    ///   - name: The name in URLs (`/api/<name>`): letters, digits, `-` and `_`.
    ///   - shared: One session for every client instead of one per `POST`.
    ///   - summary: One sentence for the catalog: what the ViewModel is for.
    ///   - outputs: Properties that are outputs although their type reads as an
    ///     input (a `PublishSubject` a ViewModel emits on), with their kind.
    ///   - make: Creates the ViewModel; it runs in the new session's first turn.
    public func register<ViewModel>(
        _ name: String, shared: Bool = false, summary: String? = nil, outputs: [String: OutputKind] = [:],
        make: @escaping @Sendable (ViewModelContext) throws -> ViewModel
    ) {
        if let why = reservedNames[name] { preconditionFailure("ViewModel name '\(name)' is reserved: \(why)") }
        precondition(Self.isValidName(name), "ViewModel name '\(name)' must be 1–64 ASCII letters, digits, - or _")
        lock.withLock {
            precondition(definitions[name] == nil, "ViewModel '\(name)' is registered twice")
            definitions[name] = ViewModelDefinition(name: name, isShared: shared, summary: summary, declaredOutputs: outputs, make: { try make($0) })
            order.append(name)
            registrations += 1
            namesByType[ObjectIdentifier(ViewModel.self)] = namesByType[ObjectIdentifier(ViewModel.self)] ?? name
            cachedCatalog = nil
        }
    }

    /// Whether `name` can name a ViewModel: 1–64 ASCII letters, digits, `-` or `_`.
    package static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && URLSafeName.allows(name)
    }

    /// Whether `name` is a registered ViewModel.
    public func isRegistered(_ name: String) -> Bool { lock.withLock { definitions[name] != nil } }

    /// Creates a session of `viewModel` (or joins the shared one) with creation
    /// `parameters`, for `client` (counted against its share), answering only
    /// `owner` besides its id, and made for `identity` (the factory's
    /// context); a shared session counts for nobody and answers anyone.
    /// `completion` runs once its ViewModel is made and bound.
    package func createSession(
        _ viewModel: String, parameters: Data = Data(), client: String? = nil, owner: SessionOwner? = nil,
        identity: Identity? = nil, completion: @escaping @Sendable (Result<Session, BinderyError>) -> Void
    ) {
        let session: Session
        let isNew: Bool
        let definition: ViewModelDefinition
        do {
            definition = try self.definition(viewModel)
            try ViewModelContext.validate(parameters)
            (session, isNew) = try lock.withLock { () throws -> (Session, Bool) in
                if definition.isShared, let existing = sharedSessions[viewModel] { return (existing, false) }
                let session =
                    definition.isShared
                    ? try addSessionLocked(viewModel, client: nil, owner: nil)
                    : try addSessionLocked(viewModel, client: client, owner: owner)
                if definition.isShared { sharedSessions[viewModel] = session }
                return (session, true)
            }
        } catch {
            return completion(.failure(error as? BinderyError ?? BinderyError(.viewModelFailed, "\(error)")))
        }
        // A shared session's later clients queue behind its start, so they see it started (or gone).
        guard isNew else { return session.snapshot { result in completion(result.map { _ in session }) } }
        let context = ViewModelContext(
            sessionID: session.id, parameters: parameters, services: services,
            identity: definition.isShared ? nil : identity)
        session.start(declaredOutputs: definition.declaredOutputs, { try definition.make(context) }) { [self] result in
            switch result {
            case .success:
                configuration.logger.info("session created", metadata: ["view_model": "\(viewModel)", "session": "\(session.id)"])
                completion(.success(session))
            case .failure(let error):
                configuration.logger.notice("session not created", metadata: ["view_model": "\(viewModel)", "error": "\(error.message)"])
                remove(session, reason: nil)  // one that fails halfway is disposed: no subscription it made lives on
                completion(.failure(error))
            }
        }
    }

    /// A new session of `viewModel` for `client` on `scheduler` (a new one by
    /// default), counted against the limits; call with `lock` held.
    private func addSessionLocked(_ viewModel: String, client: String?, owner: SessionOwner?, on scheduler: SerialScheduler? = nil) throws -> Session {
        if let client, sessionsByClient[client, default: 0] >= configuration.maxSessionsPerClient {
            throw BinderyError(.tooManySessions, "this client already has \(configuration.maxSessionsPerClient) sessions; delete one or let one idle out")
        }
        guard sessions.count < configuration.maxSessions else {
            throw BinderyError(.limitReached, "the server already runs \(configuration.maxSessions) sessions")
        }
        if let client { sessionsByClient[client, default: 0] += 1 }
        let session = Session(
            id: SessionID.make(), viewModelName: viewModel, client: client, owner: owner, limits: configuration,
            scheduler: scheduler ?? SerialScheduler(label: "bindery.session.\(viewModel)", pool: configuration.executors),
            format: wireFormat, published: published)
        session.sessionURL = sessionURL
        session.spawn = { [weak self] child, scheduler in
            guard let self else { throw BinderyError(.viewModelFailed, "the application is gone") }
            return try self.startChild(child, for: client, owner: owner, on: scheduler)
        }
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
                remove(session, reason: nil)
            }
        }
        return session
    }

    /// The registered name of ViewModel type `type`.
    func name(of type: Any.Type) -> String? {
        lock.withLock { namesByType[ObjectIdentifier(type)] }
    }

    /// The live session `id` of `viewModel`.
    package func session(_ viewModel: String, id: String) throws -> Session {
        _ = try definition(viewModel)
        guard let session = lock.withLock({ sessions[id] }), session.viewModelName == viewModel else {
            throw BinderyError(.unknownSession, "no session '\(id)' of \(viewModel)")
        }
        return session
    }

    /// Disposes `session`; its subscriptions end with `.end`.
    package func disposeSession(_ session: Session) {
        remove(session, reason: "deleted")
    }

    /// Disposes `session`, logged with `reason` if it was live.
    private func remove(_ session: Session, reason: String?, completion: (@Sendable () -> Void)? = nil) {
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
        if let reason {
            configuration.logger.info(
                "session disposed",
                metadata: [
                    "view_model": "\(session.viewModelName)", "session": "\(session.id)", "reason": "\(reason)",
                ])
        }
        session.dispose(completion: completion)
    }

    /// The number of live sessions of each registered ViewModel.
    package var sessionCounts: [String: Int] {
        lock.withLock {
            var counts = Dictionary(uniqueKeysWithValues: order.map { ($0, 0) })
            for session in sessions.values { counts[session.viewModelName, default: 0] += 1 }
            return counts
        }
    }

    /// The number of live sessions.
    public var sessionCount: Int { lock.withLock { sessions.count } }

    /// Disposes sessions idle longer than the configured timeout; returns how many.
    @discardableResult
    package func disposeIdleSessions(now: ContinuousClock.Instant = .now) -> Int {
        let idle = lock.withLock {
            sessions.values.filter { $0.isIdle(for: configuration.sessionIdleTimeout, unused: configuration.unusedSessionTimeout, now: now) }
        }
        idle.forEach { remove($0, reason: "idle") }
        return idle.count
    }

    /// Checks for idle sessions every `interval` until `stop()`.
    package func startIdleReaper(every interval: Duration = .seconds(30)) {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let nanos = Int(interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanos), repeating: .nanoseconds(nanos))
        timer.setEventHandler { [weak self] in self?.disposeIdleSessions() }
        timer.resume()
        lock.withLock { reaper = timer }
    }

    /// Disposes every session and stops the reaper, waiting at most `grace` for
    /// sessions busy in their ViewModel: one that never finishes must not keep
    /// the process from stopping. Blocks the caller: call it from the thread
    /// that stops the process, never from a session's turn.
    public func stop(grace: Duration = .seconds(2)) {
        let all = lock.withLock { () -> [Session] in
            reaper?.cancel()
            reaper = nil
            return Array(sessions.values)
        }
        let group = DispatchGroup()
        for session in all {
            group.enter()
            remove(session, reason: "shutdown") { group.leave() }
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

    private func definition(_ name: String) throws -> ViewModelDefinition {
        guard let definition = lock.withLock({ definitions[name] }) else {
            throw BinderyError(.unknownViewModel, "no ViewModel named '\(name)'")
        }
        return definition
    }
}
