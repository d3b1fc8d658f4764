import Foundation

/// How an `Application`'s sessions end: idle ones let go, and all of them when it stops.
extension Application {
    /// Lets go of sessions idle longer than the configured timeout; returns
    /// how many. Where the app keeps sessions, one that was used goes to the
    /// store (and is made again when asked for); one never used is deleted.
    @discardableResult
    package func disposeIdleSessions(now: ContinuousClock.Instant = .now) -> Int {
        let (all, kept) = (live.all, archive)
        let idle = all.filter { $0.isIdle(for: configuration.sessionIdleTimeout, unused: configuration.unusedSessionTimeout, now: now) }
        if kept != nil { all.forEach { $0.markSeenIfStreamed() } }
        for session in idle {
            if let kept, session.origin != nil, session.isUsed {
                retire(session, to: kept, reason: "idle")
            } else {
                if session.origin != nil { kept?.delete(session) }
                live.remove(session)
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
        reaper.withLock { $0 = timer }
        archive?.start()
    }

    /// Disposes every session and stops the reaper, waiting at most `grace` for
    /// sessions busy in their ViewModel: one that never finishes must not keep
    /// the process from stopping. Where the app keeps sessions, each is saved
    /// as it stops, and all are written before this returns. Blocks the
    /// caller: call it from the thread that stops the process, never from a session's turn.
    public func stop(grace: Duration = .seconds(2)) {
        reaper.withLock { reaper in
            reaper?.cancel()
            reaper = nil
        }
        let (all, keeper) = (live.all, archive)
        let kept = keeper == nil ? [] : all.filter { $0.origin != nil }
        let others = keeper == nil ? all : all.filter { $0.origin == nil }
        let group = DispatchGroup()
        for session in others {
            group.enter()
            live.remove(session)
            log(session, "session disposed", reason: "shutdown")
            session.dispose { group.leave() }
        }
        if let keeper {
            keeper.retireAll(kept, grace: grace) { [self] session, _ in
                live.remove(session)
                log(session, "session let go to its store", reason: "shutdown")
            }
            configuration.logger.info("sessions saved", metadata: ["sessions": "\(kept.count)"])
        }
        let (seconds, attoseconds) = grace.components
        if group.wait(timeout: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))) == .timedOut {
            configuration.logger.warning("stopped with sessions still busy in their ViewModel")
        }
    }
}
