import Foundation
import Logging

/// The Bindery runtime: the registry of ViewModels (`Definitions`), the
/// sessions this process holds (`LiveSessions`) and, where sessions outlive
/// the process, their store (`SessionArchive`, `Application+Archive.swift`).
/// This type makes, finds and lets go of sessions between the three; a
/// cluster reaches it through `SharedSessionRuntime` alone.
///
/// Thread safety: every method may be called from any thread, and none waits
/// for a session: work that needs one is queued on it and answered through a
/// completion, called from the session's turn.
public final class Application: Sendable {
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
    /// The registry: what each ViewModel is and how to make one.
    let definitions = Definitions()
    /// The sessions this process holds.
    let live: LiveSessions
    /// Where sessions are kept so that they outlive the process, if they are
    /// (`keepSessions(in:)`): set once, before serving.
    let kept = Locked<SessionArchive?>(nil)
    /// Where the browsers' sign-ins are kept (`keepSignIns`).
    let signInStore = Locked<(any SignInStore)?>(nil)
    /// Who runs the shared sessions across a cluster's processes, if anyone
    /// (`hostSharedSessions`): set once, before serving.
    let sharedHost = Locked<SharedSessionHost?>(nil)
    let reaper = Locked<DispatchSourceTimer?>(nil)

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
        live = LiveSessions(maxSessions: configuration.maxSessions, maxPerClient: configuration.maxSessionsPerClient)
    }

    /// Registers a ViewModel of `type` under `name`, made per session by `make`:
    /// what every `register` (`ViewModelRegistry`'s) comes down to.
    public func register(
        _ name: String, type: Any.Type, shared: Bool, summary: String?, outputs: [String: OutputKind],
        makeAny make: @escaping @Sendable (ViewModelContext) throws -> Any
    ) {
        if let why = reservedNames[name] { preconditionFailure("ViewModel name '\(name)' is reserved: \(why)") }
        precondition(Self.isValidName(name), "ViewModel name '\(name)' must be 1–64 ASCII letters, digits, - or _")
        definitions.add(ViewModelDefinition(name: name, isShared: shared, summary: summary, declaredOutputs: outputs, make: { try make($0) }), type: type)
    }

    /// Whether `name` can name a ViewModel: 1–64 ASCII letters, digits, `-` or `_`.
    package static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && URLSafeName.allows(name)
    }

    /// Whether `name` is a registered ViewModel.
    public func isRegistered(_ name: String) -> Bool { definitions[name] != nil }

    /// Where the app keeps its sessions, if it does.
    var archive: SessionArchive? { kept.withLock { $0 } }

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
            definition = try definitions.definition(viewModel)
            try ViewModelContext.validate(parameters)
        } catch {
            return completion(.failure(error as? BinderyError ?? BinderyError(.viewModelFailed, "\(error)")))
        }
        guard definition.isShared else {
            guard let preferredID, SessionID.isValid(preferredID) else {
                return make(definition, parameters: parameters, client: client, owner: owner, identity: identity, completion: completion)
            }
            @Sendable func makeOne(taking taken: Bool) {
                if taken {
                    configuration.logger.notice(
                        "session id asked for is taken: made another", metadata: ["view_model": "\(viewModel)", "session": "\(preferredID)"])
                }
                make(
                    definition, parameters: parameters, client: client, owner: owner, identity: identity, id: taken ? nil : preferredID,
                    completion: completion)
            }
            let isLive = live.isTaken(preferredID)
            guard !isLive, let archive else { return makeOne(taking: isLive) }
            // A stored session keeps its id: a new one must not replace it in the store.
            return archive.isKnown(id: preferredID) { known in makeOne(taking: (try? known.get()) ?? true) }
        }
        if let host = sharedHost.withLock({ $0 }) { return replica(of: viewModel, from: host, completion: completion) }
        switch live.await(.shared(viewModel: viewModel), completion) {
        case .live(let session):
            // A shared session's later clients queue behind its start, so they see it started (or gone).
            session.snapshot { result in completion(result.map { _ in session }) }
        case .behind:
            return
        case .first:
            let finish: @Sendable (Result<Session, BinderyError>) -> Void = { [live] in live.finish(.shared(viewModel: viewModel), $0) }
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
            definition = try definitions.definition(viewModel)
        } catch {
            return completion(.failure(error))
        }
        @Sendable func unknown() -> BinderyError { BinderyError(.unknownSession, "no session '\(id)' of \(viewModel)") }
        // Another request may be making the same id again for another ViewModel's name.
        @Sendable func answer(_ result: Result<Session, BinderyError>) {
            completion(result.flatMap { $0.viewModelName == viewModel ? .success($0) : .failure(unknown()) })
        }
        if let session = live[id] { return answer(.success(session)) }
        if definition.isShared, let host = sharedHost.withLock({ $0 }) {
            // A cluster's shared session: this process's replica of it, under the id the cluster gave it.
            return replica(of: viewModel, from: host) { result in completion(result.flatMap { $0.id == id ? .success($0) : .failure(unknown()) }) }
        }
        guard let archive else { return completion(.failure(unknown())) }
        switch live.await(.again(id: id), answer) {
        case .live(let session): answer(.success(session))
        case .behind: return
        case .first:
            let finish: @Sendable (Result<Session, BinderyError>) -> Void = { [live] in live.finish(.again(id: id), $0) }
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
        let archive = archive
        let origin = archive.map { _ in SessionOrigin(isShared: definition.isShared, parameters: parameters, identity: identity, createdAt: Date()) }
        let session: Session
        do {
            session = try live.add(at: .new(preferred: id), client: client, sharedAs: definition.isShared ? definition.name : nil) { id in
                newSession(definition.name, id: id, client: client, owner: owner, origin: origin, archive: archive)
            }.session
        } catch {
            return completion(.failure(error))
        }
        let context = ViewModelContext(sessionID: session.id, parameters: parameters, services: services, identity: identity, client: client)
        start(session, definition, context: context, resuming: nil, completion: completion)
    }

    /// The stored session `record` of `definition`, made again here by its
    /// factory from its parameters and identity, with its declared state.
    private func rebuild(_ record: StoredSession, _ definition: ViewModelDefinition, completion: @escaping @Sendable (Result<Session, BinderyError>) -> Void) {
        let archive = archive
        let origin = SessionOrigin(isShared: record.isShared, parameters: record.parameters, identity: record.identity, createdAt: record.createdAt)
        let made: (session: Session, isNew: Bool, replaced: Session?)
        do {
            // The live one is kept if it was made meanwhile through its other name (a shared session asked for by id and by creation).
            made = try live.add(at: .rebuilt(record.id), client: record.client, sharedAs: record.isShared ? definition.name : nil) { id in
                newSession(definition.name, id: id, client: record.client, owner: record.owner, origin: origin, archive: archive)
            }
        } catch {
            return completion(.failure(error))
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
                live.remove(session)
                session.dispose()
                completion(.failure(error))
            }
        }
    }

    /// A session object of `viewModel` under `id` for `client`, on `scheduler`
    /// (a new one by default), linked to this application: its children are
    /// made here, and one with an `origin` is saved to `archive` when it
    /// changes. It runs nothing until `start`.
    func newSession(
        _ viewModel: String, id: String, client: String?, owner: SessionOwner?, origin: SessionOrigin?, role: Session.Role = .own,
        archive: SessionArchive?, on scheduler: SerialScheduler? = nil
    ) -> Session {
        var onChange: (@Sendable (Session) -> Void)?
        if origin != nil, let archive { onChange = { [weak archive] in archive?.changed($0) } }
        let links = Session.Links(
            spawn: { [weak self] child, scheduler in
                guard let self else { throw BinderyError(.viewModelFailed, "the application is gone") }
                return try self.startChild(child, for: client, owner: owner, on: scheduler)
            },
            sessionURL: sessionURL, onChange: onChange)
        return Session(
            id: id, viewModelName: viewModel, client: client, owner: owner, origin: origin, role: role, links: links,
            limits: configuration, scheduler: scheduler ?? SerialScheduler(label: "bindery.session.\(viewModel)", pool: configuration.executors),
            format: wireFormat, published: published)
    }

    /// Starts a session for a ViewModel an output emitted (navigation to a
    /// child), for its parent's `client` and `owner`, on its parent's
    /// `scheduler`: its id is known at once, and requests to it queue behind its start.
    private func startChild(_ viewModel: AnyObject, for client: String?, owner: SessionOwner?, on scheduler: SerialScheduler) throws -> Session {
        guard let name = definitions.name(of: type(of: viewModel)), let definition = definitions[name] else {
            throw BinderyError(.viewModelFailed, "\(type(of: viewModel)) is not registered; register it to navigate to it")
        }
        let session = try live.add(at: .new(), client: client) { id in
            newSession(name, id: id, client: client, owner: owner, origin: nil, archive: nil, on: scheduler)
        }.session
        nonisolated(unsafe) let child = viewModel  // handed to the child's turn, never used here again
        session.start(declaredOutputs: definition.declaredOutputs, { child }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                configuration.logger.info("session created", metadata: ["view_model": "\(name)", "session": "\(session.id)", "child": "true"])
            case .failure(let error):
                configuration.logger.error("child session not started", metadata: ["view_model": "\(name)", "session": "\(session.id)", "error": "\(error)"])
                live.remove(session)
                session.dispose()
            }
        }
        return session
    }

    /// The live session `id` of `viewModel` (not one only stored: `findSession`).
    package func session(_ viewModel: String, id: String) throws -> Session {
        guard let session = try liveSession(viewModel, id: id) else { throw BinderyError(.unknownSession, "no session '\(id)' of \(viewModel)") }
        return session
    }

    /// The live session `id` of `viewModel`, nil if this process does not hold
    /// it; throws if `viewModel` is not registered, or `id` is another's.
    package func liveSession(_ viewModel: String, id: String) throws -> Session? {
        _ = try definitions.definition(viewModel)
        guard let session = live[id] else { return nil }
        guard session.viewModelName == viewModel else { throw BinderyError(.unknownSession, "no session '\(id)' of \(viewModel)") }
        return session
    }

    /// Disposes `session`, and deletes it from the store; its subscriptions end with `.end`.
    package func disposeSession(_ session: Session) {
        archive?.delete(session)
        live.remove(session)
        log(session, "session disposed", reason: "deleted")
        session.dispose()
    }

    func log(_ session: Session, _ message: Logger.Message, reason: String) {
        configuration.logger.info(
            message, metadata: ["view_model": "\(session.viewModelName)", "session": "\(session.id)", "reason": "\(reason)"])
    }

    /// The number of live sessions of each registered ViewModel.
    package var sessionCounts: [String: Int] { live.counts(of: definitions.names) }

    /// The number of live sessions.
    public var sessionCount: Int { live.count }

    /// Every registered ViewModel with its inputs and outputs; `completion` runs
    /// at once if the catalog is known, else after probing the ViewModels in a
    /// turn of their own (a factory may take its time).
    package func catalog(_ completion: @escaping @Sendable (Catalog) -> Void) {
        let (all, generation): ([ViewModelDefinition], Int)
        switch definitions.catalog {
        case .known(let catalog): return completion(catalog)
        case .toProbe(let definitions, let of): (all, generation) = (definitions, of)
        }
        let probe = SerialScheduler(label: "bindery.catalog", pool: configuration.executors)
        probe.async { [self] in
            let catalog = Catalog(viewModels: all.map { Catalog.Entry(probing: $0, services: services, nameOf: definitions.name(of:)) })
            definitions.keep(catalog, of: generation)
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
}
