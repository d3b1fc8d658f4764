import Foundation
import Logging
import Synchronization

/// Keeps an application's sessions in its `SessionStore`, so that they
/// outlive their process.
///
/// A session that changed (its declared state, or it was seen again after a
/// while) is captured in one of its turns at the next save, a moment later,
/// and every capture of that moment is written in one transaction: an input
/// never waits for a write, and a write is one fsync for all the sessions
/// that changed in the meantime. A session let go (idle, or the server
/// stopping) is captured and disposed in one turn, and its record is held
/// here until written, so that a request in between finds it. A session
/// asked for that no process holds is found here (held or stored) and
/// claimed: its record says, before it serves anything, that it runs again.
///
/// Threading: the store is called on `queue` only, one call at a time (its
/// database may block that thread, never a request's or a session's); every
/// other method may be called from any thread and never waits for the store.
final class SessionArchive: @unchecked Sendable {
    /// An id of a session no process stopped cleanly is this far above the
    /// last one saved: further than a session publishes between two saves,
    /// so an id from before never names an event after (see `claim`).
    static let restartGap: UInt64 = 1 << 32

    private let store: SessionStore
    private let queue = DispatchQueue(label: "bindery.sessions.store")
    private let configuration: RuntimeConfiguration

    private struct Pending {
        /// Sessions to capture at the next save.
        var changed: [ObjectIdentifier: Session] = [:]
        /// Captured records not yet written, by id.
        var unwritten: [String: StoredSession] = [:]
        /// Ids to delete at the next write.
        var deleting: Set<String> = []
    }
    private let pending = Locked(Pending())
    /// The app's kept values (`Application.keptRelay`), by key, and those changed since they were written.
    private let values = Locked<(states: [String: SessionState], changed: Set<String>)>(([:], []))
    private let timer = Locked<DispatchSourceTimer?>(nil)
    /// Sessions the store held at the last sweep.
    private let stored = Atomic<Int>(0)
    /// Sessions made again from the store.
    private let rebuilt = Atomic<UInt64>(0)

    /// Told the ids of live sessions another process claimed (their saves
    /// were refused); set by the application before `start`.
    var onTaken: (@Sendable (Set<String>) -> Void)?

    init(store: SessionStore, configuration: RuntimeConfiguration) {
        self.store = store
        self.configuration = configuration
    }

    /// Sessions stored at the last sweep.
    var storedCount: Int { stored.load(ordering: .relaxed) }

    /// Sessions rebuilt from the store since the start.
    var rebuiltCount: UInt64 { rebuilt.load(ordering: .relaxed) }

    /// Saves every `sessionSaveInterval`, and sweeps expired sessions, until `stop`.
    func start() {
        let source = DispatchSource.makeTimerSource(queue: .global())
        let interval = Self.dispatchInterval(configuration.sessionSaveInterval)
        source.schedule(deadline: .now() + interval, repeating: interval)
        let sweepEvery = max(1, Int(Duration.seconds(30) / configuration.sessionSaveInterval))
        // Counted atomically: a source's handler runs one at a time, but on the
        // global queue's threads, which ThreadSanitizer does not see ordered.
        let ticks = Atomic<Int>(0)
        source.setEventHandler { [weak self] in
            guard let self else { return }
            save()
            let tick = ticks.add(1, ordering: .relaxed).newValue
            if tick % sweepEvery == 1 || sweepEvery == 1 { sweep() }
        }
        source.resume()
        timer.withLock { $0 = source }
        sweep()
    }

    /// Stops saving on a timer (what is pending is written by `retireAll` or lost).
    func stop() {
        timer.withLock {
            $0?.cancel()
            $0 = nil
        }
    }

    /// Marks `session` to be captured at the next save.
    func changed(_ session: Session) {
        pending.withLock { $0.changed[ObjectIdentifier(session)] = session }
    }

    /// Holds `record` (a session captured as it was let go) until the next write.
    func keep(_ record: StoredSession) {
        pending.withLock {
            $0.unwritten[record.id] = record
            $0.deleting.remove(record.id)
        }
    }

    /// Drops what is pending for `session` (another process claimed it): nothing of it is written from here.
    func forget(_ session: Session) {
        pending.withLock {
            $0.changed[ObjectIdentifier(session)] = nil
            $0.unwritten[session.id] = nil
        }
    }

    /// Deletes session `id` from the store at the next write; from now on it is not found.
    func delete(_ session: Session) {
        pending.withLock {
            $0.changed[ObjectIdentifier(session)] = nil
            $0.unwritten[session.id] = nil
            $0.deleting.insert(session.id)
        }
    }

    /// Captures the changed sessions, each in its turn, and writes what was
    /// captured in one transaction once all have answered; then calls `done`.
    func save(then done: (@Sendable () -> Void)? = nil) {
        let sessions = pending.withLock { pending -> [Session] in
            defer { pending.changed = [:] }
            return Array(pending.changed.values)
        }
        let write: @Sendable () -> Void = { [self] in
            queue.async {
                self.write()
                done?()
            }
        }
        guard !sessions.isEmpty else { return write() }
        let waiting = Atomic<Int>(sessions.count)
        for session in sessions {
            session.capture { [self] record in
                // A session deleted meanwhile stays deleted.
                if let record { pending.withLock { if !$0.deleting.contains(record.id) { $0.unwritten[record.id] = record } } }
                if waiting.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { write() }
            }
        }
    }

    /// The stored state of the app's value `key`, read now: at registration,
    /// before serving (it waits for the store).
    func storedValue(key: String) -> Data? {
        queue.sync {
            do {
                return try store.loadValue(key: key)
            } catch {
                configuration.logger.error("kept value not read", metadata: ["key": "\(key)", "error": "\(error)"])
                return nil
            }
        }
    }

    /// Keeps the app's value `key`, whose relay is `state`'s, from now on.
    func keep(value state: SessionState, as key: String) {
        values.withLock { $0.states[key] = state }
    }

    /// Marks the app's value `key` to be written at the next save.
    func valueChanged(_ key: String) {
        values.withLock { _ = $0.changed.insert(key) }
    }

    /// Writes the app's values that changed (on the store's queue, which orders their captures).
    private func writeValues() {
        let (states, changed) = values.withLock { values in
            defer { values.changed = [] }
            return (values.states, values.changed)
        }
        guard !changed.isEmpty else { return }
        do {
            try store.saveValues(Dictionary(uniqueKeysWithValues: try changed.compactMap { key in try states[key].map { (key, try $0.capture()) } }))
        } catch {
            configuration.logger.error("kept values not saved", metadata: ["error": "\(error)"])
            values.withLock { $0.changed.formUnion(changed) }
        }
    }

    /// Writes the held records and deletions; on failure keeps them for the next try.
    private func write() {
        writeValues()
        let (records, deleting) = pending.withLock { ($0.unwritten, $0.deleting) }
        guard !records.isEmpty || !deleting.isEmpty else { return }
        let taken: Set<String>
        do {
            taken = try store.save(Array(records.values), deleting: Array(deleting))
        } catch {
            configuration.logger.error("sessions not saved", metadata: ["sessions": "\(records.count)", "error": "\(error)"])
            return
        }
        if !taken.isEmpty { onTaken?(taken) }
        pending.withLock { pending in
            // What was captured again meanwhile is newer: it stays for the next write.
            for (id, record) in records where pending.unwritten[id] == record { pending.unwritten[id] = nil }
            pending.deleting.subtract(deleting)
        }
    }

    /// The stored session `id` of `viewModel`, claimed for this process: its
    /// record is written back, before `completion` runs, with its last event id
    /// moved past every id it may have published (`restartGap`) and marked not
    /// stopped cleanly, so that if this process dies too, the next rebuild
    /// still numbers its events above every id used. `completion` gets the
    /// record as it was (nil if there is none), on the store's queue.
    func claim(id: String, viewModel: String, completion: @escaping @Sendable (Result<StoredSession?, BinderyError>) -> Void) {
        queue.async { [self] in
            completion(
                Result {
                    try claimNow(id: id, viewModel: viewModel) { try store.load(id: id) }
                }.mapError(storeError))
        }
    }

    /// Whether session `id` is stored, held to be written, or to be deleted:
    /// a new session must not take its id. `completion` runs on the store's queue.
    func isKnown(id: String, completion: @escaping @Sendable (Result<Bool, BinderyError>) -> Void) {
        queue.async { [self] in
            completion(
                Result {
                    if pending.withLock({ $0.unwritten[id] != nil || $0.deleting.contains(id) }) { return true }
                    return try store.load(id: id) != nil
                }.mapError(storeError))
        }
    }

    /// The stored shared session of `viewModel`, claimed as `claim` does.
    func claimShared(viewModel: String, completion: @escaping @Sendable (Result<StoredSession?, BinderyError>) -> Void) {
        queue.async { [self] in
            completion(
                Result {
                    let held = pending.withLock { $0.unwritten.values.first { $0.isShared && $0.viewModel == viewModel } }
                    guard let found = try held ?? store.loadShared(viewModel: viewModel) else { return nil }
                    return try claimNow(id: found.id, viewModel: viewModel) { found }
                }.mapError(storeError))
        }
    }

    private func claimNow(id: String, viewModel: String, load: () throws -> StoredSession?) throws -> StoredSession? {
        let (held, deleted) = pending.withLock { ($0.unwritten[id], $0.deleting.contains(id)) }
        guard !deleted, let record = try held ?? load(), record.viewModel == viewModel else { return nil }
        var claimed = record
        claimed.lastEventID = record.lastEventID &+ Self.restartGap
        claimed.stoppedCleanly = false
        claimed.lastSeen = Date()
        try store.claim(claimed)
        pending.withLock { if $0.unwritten[id] == record { $0.unwritten[id] = nil } }
        rebuilt.add(1, ordering: .relaxed)
        return record
    }

    private func storeError(_ error: Error) -> BinderyError {
        configuration.logger.error("session store failed", metadata: ["error": "\(error)"])
        return BinderyError(.storeUnavailable, "the session store cannot be read now; try again")
    }

    /// How many sessions a sweep removes in one transaction: a few
    /// milliseconds of the store's queue and the database's writer, so that
    /// what waits for either is served between two (a trim of 250,000 in one
    /// transaction held them for seconds).
    static let sweepBatch = 1_000

    /// Removes expired sessions and counts the rest, on the store's queue, in
    /// batches each queued behind what came meanwhile; then `completion`.
    func sweep(now: Date = Date(), completion: (@Sendable () -> Void)? = nil) {
        let lifetime = Double(configuration.storedSessionLifetime.components.seconds)
        queue.async { [self] in
            do {
                let (left, done) = try store.expire(
                    lastSeenBefore: now.addingTimeInterval(-lifetime), keepingAtMost: configuration.maxStoredSessions, batch: Self.sweepBatch)
                stored.store(left, ordering: .relaxed)
                guard done else { return sweep(now: now, completion: completion) }
            } catch {
                configuration.logger.error("stored sessions not expired", metadata: ["error": "\(error)"])
            }
            completion?()
        }
    }

    /// Lets go of `sessions` (the server stopping): each is captured and
    /// disposed in a turn, then all are written, in at most `grace`; blocks
    /// the caller (the thread that stops the process) until then.
    func retireAll(_ sessions: [Session], grace: Duration, retired: @escaping @Sendable (Session, StoredSession?) -> Void) {
        stop()
        let group = DispatchGroup()
        for session in sessions {
            group.enter()
            session.retire { [self] record in
                if let record { keep(record) }
                retired(session, record)
                group.leave()
            }
        }
        let deadline = DispatchTime.now() + Self.dispatchInterval(grace)
        if group.wait(timeout: deadline) == .timedOut {
            configuration.logger.warning("stopped with sessions still busy in their ViewModel: their latest state is not saved")
        }
        // What changed and was not captured yet is captured now, then everything is written.
        let written = DispatchSemaphore(value: 0)
        save { written.signal() }
        if written.wait(timeout: deadline + .seconds(5)) == .timedOut {
            configuration.logger.error("stopped before the sessions' last state was written")
        }
    }

    /// Captures and writes what is pending now, and returns once it is written (tests).
    func flush() {
        let written = DispatchSemaphore(value: 0)
        save { written.signal() }
        written.wait()
    }

    static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
