import Foundation

/// Sessions that outlive the process: an `Application`'s archive, and what
/// goes between it and the live table.
extension Application {
    /// Keeps the sessions in `store` so that they outlive this process: their
    /// declared state (`SessionRelay`) is saved a moment after it changes,
    /// and a session asked for that no process holds is made again from it.
    /// Call before serving.
    package func keepSessions(in store: SessionStore) {
        let archive = SessionArchive(store: store, configuration: configuration)
        archive.onTaken = { [weak self] ids in ids.forEach { self?.relinquish(sessionID: $0) } }
        kept.withLock { kept in
            precondition(kept == nil, "the application already keeps its sessions")
            kept = archive
        }
    }

    /// A `SessionRelay` of the app's own, kept under `key` where the app keeps
    /// its sessions: state a service holds for every session (the example
    /// `UserService`'s users), saved with the sessions and given back after a
    /// restart. Elsewhere, a plain relay holding `value`. Call before serving:
    /// it reads the store now.
    public func keptRelay<Element: Codable>(_ key: String, value: Element) -> SessionRelay<Element> {
        guard let archive else { return SessionRelay(value: value) }
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

    /// Lets go of live session `id` because another process claimed it (a
    /// cluster's node its requests reach now): it is not saved from here, and
    /// its streams end without `bindery.end`, so that their clients reconnect
    /// and reach it there. Nothing if this process does not hold it.
    package func relinquish(sessionID id: String) {
        guard let session = live[id] else { return }
        archive?.forget(session)
        live.remove(session)
        log(session, "session let go: another process claimed it", reason: "claimed")
        session.relinquish()
    }

    /// Lets `session` go to the store: captured as it stops and disposed in
    /// one turn, held by the archive until written, then out of the live table.
    func retire(_ session: Session, to archive: SessionArchive, reason: String) {
        session.retire { [self] record in
            if let record { archive.keep(record) }
            live.remove(session)
            log(session, "session let go to its store", reason: reason)
        }
    }

    /// Sessions in the store at its last sweep (0 if the app keeps none).
    package var storedSessionCount: Int { archive?.storedCount ?? 0 }

    /// Sessions made again from the store since the start.
    package var rebuiltSessionCount: UInt64 { archive?.rebuiltCount ?? 0 }

    /// Saves every session that changed and waits until it is written (tests).
    package func saveSessions() { archive?.flush() }

    /// Sweeps the store now: expired sessions out, and the count (tests).
    package func sweepStoredSessions(now: Date = Date(), waiting: Bool = true, completion: (@Sendable () -> Void)? = nil) {
        guard let archive else { return }
        let swept = DispatchSemaphore(value: 0)
        archive.sweep(now: now) {
            completion?()
            swept.signal()
        }
        if waiting { swept.wait() }
    }
}
