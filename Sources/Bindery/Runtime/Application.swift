import Foundation

/// The Bindery runtime: the registry of ViewModels, their live sessions and the catalog.
///
/// Thread safety: every method may be called from any thread.
public final class Application: @unchecked Sendable {
    /// The limits in force.
    public let configuration: RuntimeConfiguration
    private let lock = NSLock()
    private var definitions: [String: ViewModelDefinition] = [:]
    private var order: [String] = []
    private var namesByType: [ObjectIdentifier: String] = [:]
    private var sessions: [String: Session] = [:]
    private var sharedSessions: [String: Session] = [:]
    private var cachedCatalog: Catalog?
    private var reaper: DispatchSourceTimer?

    /// A runtime with `configuration`.
    public init(configuration: RuntimeConfiguration = .init()) {
        self.configuration = configuration
    }

    /// Registers a ViewModel under `name`, made per session by `make`.
    ///
    /// - Parameters:
    ///   - name: The name in URLs (`/api/<name>`): letters, digits, `-` and `_`.
    ///   - shared: One session for every client instead of one per `POST`.
    ///   - summary: One sentence for the catalog: what the ViewModel is for.
    ///   - outputs: Properties that are outputs although their type reads as an
    ///     input (a `PublishSubject` a ViewModel emits on), with their kind.
    ///   - make: Creates the ViewModel; it runs on the new session's scheduler.
    public func register<ViewModel>(_ name: String, shared: Bool = false, summary: String? = nil, outputs: [String: OutputKind] = [:], make: @escaping (ViewModelContext) throws -> ViewModel) {
        precondition(!name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } && name.allSatisfy(\.isASCII),
                     "ViewModel name '\(name)' must be ASCII letters, digits, - or _")
        lock.withLock {
            precondition(definitions[name] == nil, "ViewModel '\(name)' is registered twice")
            definitions[name] = ViewModelDefinition(name: name, isShared: shared, summary: summary, declaredOutputs: outputs, make: { try make($0) })
            order.append(name)
            namesByType[ObjectIdentifier(ViewModel.self)] = namesByType[ObjectIdentifier(ViewModel.self)] ?? name
            cachedCatalog = nil
        }
    }

    /// Whether `name` is a registered ViewModel.
    public func isRegistered(_ name: String) -> Bool { lock.withLock { definitions[name] != nil } }

    /// Creates a session of `viewModel` (or returns the shared one) with creation `parameters`.
    public func createSession(_ viewModel: String, parameters: Data = Data()) throws -> Session {
        let definition = try self.definition(viewModel)
        if definition.isShared, let existing = lock.withLock({ sharedSessions[viewModel] }) { return existing }
        let id = SessionID.make()
        try lock.withLock {
            if sessions.count >= configuration.maxSessions {
                throw BinderyError(.limitReached, "the server already runs \(configuration.maxSessions) sessions")
            }
        }
        let session = makeSession(id: id, viewModel: viewModel)
        try start(session, declaredOutputs: definition.declaredOutputs) { try definition.make(ViewModelContext(sessionID: id, parameters: parameters)) }
        return lock.withLock {
            if definition.isShared {
                if let raced = sharedSessions[viewModel] {
                    session.dispose()
                    return raced
                }
                sharedSessions[viewModel] = session
            }
            sessions[id] = session
            return session
        }
    }

    private func makeSession(id: String, viewModel: String) -> Session {
        let session = Session(id: id, viewModelName: viewModel, limits: configuration)
        session.spawn = { [weak self] child in
            guard let self else { throw BinderyError(.viewModelFailed, "the application is gone") }
            return try self.startChild(child)
        }
        return session
    }

    /// Starts `session`; one that fails halfway is disposed, so no subscription it made lives on.
    private func start(_ session: Session, declaredOutputs: [String: OutputKind], _ make: () throws -> Any) throws {
        do {
            try session.start(declaredOutputs: declaredOutputs, make)
        } catch {
            session.dispose()
            throw error
        }
    }

    /// Starts a session for a ViewModel an output emitted (navigation to a child).
    private func startChild(_ viewModel: AnyObject) throws -> Session {
        guard let name = name(of: type(of: viewModel)) else {
            throw BinderyError(.viewModelFailed, "\(type(of: viewModel)) is not registered; register it to navigate to it")
        }
        let id = SessionID.make()
        try lock.withLock {
            if sessions.count >= configuration.maxSessions {
                throw BinderyError(.limitReached, "the server already runs \(configuration.maxSessions) sessions")
            }
        }
        let session = makeSession(id: id, viewModel: name)
        try start(session, declaredOutputs: lock.withLock { definitions[name]?.declaredOutputs } ?? [:]) { viewModel }
        lock.withLock { sessions[id] = session }
        return session
    }

    /// The registered name of ViewModel type `type`.
    func name(of type: Any.Type) -> String? {
        lock.withLock { namesByType[ObjectIdentifier(type)] }
    }

    /// The live session `id` of `viewModel`.
    public func session(_ viewModel: String, id: String) throws -> Session {
        _ = try definition(viewModel)
        guard let session = lock.withLock({ sessions[id] }), session.viewModelName == viewModel else {
            throw BinderyError(.unknownSession, "no session '\(id)' of \(viewModel)")
        }
        return session
    }

    /// Disposes session `id` of `viewModel`; its streams end.
    public func disposeSession(_ viewModel: String, id: String) throws {
        let session = try self.session(viewModel, id: id)
        remove(session)
    }

    private func remove(_ session: Session) {
        lock.withLock {
            sessions[session.id] = nil
            if sharedSessions[session.viewModelName] === session { sharedSessions[session.viewModelName] = nil }
        }
        session.dispose()
    }

    /// The number of live sessions.
    public var sessionCount: Int { lock.withLock { sessions.count } }

    /// Disposes sessions idle longer than the configured timeout; returns how many.
    @discardableResult
    public func disposeIdleSessions(now: ContinuousClock.Instant = .now) -> Int {
        let idle = lock.withLock { sessions.values.filter { $0.isIdle(for: configuration.sessionIdleTimeout, now: now) } }
        idle.forEach(remove)
        return idle.count
    }

    /// Checks for idle sessions every `interval` until `stop()`.
    public func startIdleReaper(every interval: Duration = .seconds(30)) {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let nanos = Int(interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanos), repeating: .nanoseconds(nanos))
        timer.setEventHandler { [weak self] in self?.disposeIdleSessions() }
        timer.resume()
        lock.withLock { reaper = timer }
    }

    /// Disposes every session and stops the reaper, waiting at most `grace` for
    /// sessions busy in their ViewModel: one that never finishes must not keep
    /// the process from stopping.
    public func stop(grace: Duration = .seconds(2)) {
        let all = lock.withLock { () -> [Session] in
            reaper?.cancel()
            reaper = nil
            defer { sessions = [:]; sharedSessions = [:] }
            return Array(sessions.values)
        }
        let group = DispatchGroup()
        all.forEach { $0.dispose(leaving: group) }
        if group.wait(timeout: .now() + .milliseconds(Int(grace.components.seconds * 1_000))) == .timedOut {
            configuration.log("stopped with sessions still busy in their ViewModel")
        }
    }

    /// Every registered ViewModel with its inputs and outputs.
    public func catalog() -> Catalog {
        if let cached = lock.withLock({ cachedCatalog }) { return cached }
        let definitions = lock.withLock { order.compactMap { self.definitions[$0] } }
        let catalog = Catalog(viewModels: definitions.map { Catalog.Entry(probing: $0, nameOf: self.name(of:)) })
        lock.withLock { cachedCatalog = catalog }
        return catalog
    }

    private func definition(_ name: String) throws -> ViewModelDefinition {
        guard let definition = lock.withLock({ definitions[name] }) else {
            throw BinderyError(.unknownViewModel, "no ViewModel named '\(name)'")
        }
        return definition
    }
}
