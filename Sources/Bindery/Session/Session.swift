import Foundation

/// One running ViewModel and its event log.
///
/// Each session has one `SerialScheduler`: inputs are applied in arrival order,
/// outputs are observed there and appended to the log, and every stream is fed
/// from there. Public methods may be called from any thread; they hop onto the
/// scheduler and wait.
public final class Session: @unchecked Sendable {
    /// The session id.
    public let id: String
    /// The registered name of its ViewModel.
    public let viewModelName: String
    /// The scheduler everything in the session runs on.
    let scheduler: SerialScheduler
    private let limits: RuntimeConfiguration

    // Confined to `scheduler`.
    private var log: EventLog
    private var ports: ViewModelPorts?
    private var subscription: Disposable?
    private var streams: [ObjectIdentifier: EventStream] = [:]
    private var isDisposed = false

    private let activity = NSLock()
    private var lastActive = ContinuousClock.now
    private var streamCount = 0

    init(id: String, viewModelName: String, limits: RuntimeConfiguration) {
        self.id = id
        self.viewModelName = viewModelName
        self.limits = limits
        scheduler = SerialScheduler(label: "bindery.session.\(viewModelName)")
        log = EventLog(retained: limits.retainedEvents)
    }

    /// Creates the ViewModel with `make` on the session's scheduler and subscribes to its outputs.
    func start(declaredOutputs: [String: OutputKind] = [:], _ make: () throws -> Any) throws {
        try scheduler.sync {
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
            subscription = try ports.subscribe({ [weak self] name, kind, value in
                self?.receive(value, from: name, kind: kind)
            }, onError: { [weak self] name, error in
                self?.limits.log("session \(self?.id ?? ""): output '\(name)' failed: \(error)")
            })
        }
    }

    /// Makes a session for a ViewModel that an output emitted; set by the application.
    var spawn: ((AnyObject) throws -> Session)?

    private func receive(_ value: ViewModelPorts.Value, from name: String, kind: OutputKind) {
        // The log is confined to the session's queue; a ViewModel may still emit
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
                let child = try spawn(viewModel)
                json = try JSONEncoder.bindery.encode(ChildReference(viewModel: child.viewModelName, id: child.id))
            }
            let event = log.append(name: name, kind: kind, json: json)
            for stream in streams.values { stream.enqueue(event) }
        } catch {
            limits.log("session \(id): output '\(name)' could not be sent: \(error)")
        }
    }


    /// Marks the session used now (for idle expiry).
    func touch() { activity.withLock { lastActive = .now } }

    /// Whether the session has had no stream and no request for `idle`.
    func isIdle(for idle: Duration, now: ContinuousClock.Instant) -> Bool {
        activity.withLock { streamCount == 0 && now - lastActive >= idle }
    }

    /// The number of open streams.
    public var openStreams: Int { activity.withLock { streamCount } }

    /// The current state.
    public func snapshot() throws -> Snapshot {
        touch()
        return try scheduler.sync {
            try ensureLive()
            return makeSnapshot()
        }
    }

    private func makeSnapshot() -> Snapshot {
        Snapshot(sessionID: id, viewModel: viewModelName, lastEventID: log.lastID,
                 outputs: log.snapshot.map { ($0.name, $0.json) })
    }

    private func ensureLive() throws {
        if isDisposed { throw BinderyError(.unknownSession, "session \(id) was disposed") }
    }

    /// Sends one input and returns the snapshot once its synchronous effects are applied.
    public func send(input name: String, payload: Data) throws -> Snapshot {
        touch()
        try scheduler.sync {
            try ensureLive()
            guard let ports else { throw BinderyError(.unknownSession, "session \(id) was disposed") }
            try ports.send(name, payload: payload)
        }
        // A second turn: `sync` returns only after the trampoline has drained
        // everything the input caused, so the snapshot includes all of it.
        return try snapshot()
    }

    /// The current value of driver `name` as JSON, or nil before it has one.
    public func value(ofOutput name: String) throws -> Data? {
        touch()
        return try scheduler.sync {
            try ensureLive()
            guard let kind = ports?.kind(of: name) else {
                throw BinderyError(.unknownOutput, "\(viewModelName) has no output '\(name)'")
            }
            guard kind == .driver else {
                throw BinderyError(.unknownOutput, "'\(name)' is a signal: it has no current value; subscribe to the event stream")
            }
            return log.latest(name)?.json
        }
    }

    /// Feeds `stream`: what the client missed after `lastEventID` (or everything
    /// current when nil), then live events. Fails if the session is gone or full.
    public func attach(_ stream: EventStream, lastEventID: UInt64?) throws {
        touch()
        try scheduler.sync {
            try ensureLive()
            let admitted = activity.withLock { () -> Bool in
                guard streamCount < limits.maxStreamsPerSession else { return false }
                streamCount += 1
                return true
            }
            guard admitted else {
                throw BinderyError(.limitReached, "session \(id) already has \(limits.maxStreamsPerSession) streams")
            }
            stream.enqueue(raw: "retry: \(limits.retryMilliseconds)\n\n")
            switch lastEventID.map(log.replay(after:)) ?? .events(log.snapshot) {
            case .events(let events):
                events.forEach(stream.enqueue)
            case .reset(let events):
                stream.enqueue(raw: "event: bindery.reset\ndata: {\"lastEventId\":\(log.lastID)}\n\n")
                events.forEach(stream.enqueue)
            }
            streams[ObjectIdentifier(stream)] = stream
        }
    }

    /// Stops feeding `stream` (its client went away).
    public func detach(_ stream: EventStream) {
        scheduler.async { [self] in
            guard streams.removeValue(forKey: ObjectIdentifier(stream)) != nil else { return }
            activity.withLock {
                streamCount -= 1
                lastActive = .now
            }
        }
    }

    /// Disposes the ViewModel; every stream ends with `event: bindery.end`.
    func dispose() {
        scheduler.sync { disposeNow() }
    }

    /// Disposes the ViewModel once the session's queue is free, leaving `group` then.
    func dispose(leaving group: DispatchGroup) {
        group.enter()
        scheduler.async {
            self.disposeNow()
            group.leave()
        }
    }

    private func disposeNow() {
        guard !isDisposed else { return }
        isDisposed = true
        subscription?.dispose()
        subscription = nil
        ports = nil
        for stream in streams.values { stream.finish(last: "event: bindery.end\ndata: null\n\n") }
        streams = [:]
        activity.withLock { streamCount = 0 }
    }
}
