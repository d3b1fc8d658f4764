import Foundation
import Synchronization

/// One client's feed of a session's events: first what it missed (or the
/// snapshot), then each event as the session logs it, until the session ends
/// or the client leaves. Grammar: `reset? event* end?`.
///
/// A subscription is a position in its session's `Broadcast`: the session
/// publishes each event once, and the reader takes everything it has not read
/// in one call, a driver's older values coalesced into its newest. A reader
/// that falls more than `maxBufferedBytes` behind, or behind a signal the log
/// no longer retains, is over (`.overflow`): the client resumes with
/// `Last-Event-ID` rather than the server holding its backlog. A reader that
/// has read everything (the take that emptied its part of the log, or one that
/// found nothing) is called back through its `reader` (outside any lock) once
/// there is something, or the feed is over; so the take that finds nothing
/// after it needs no lock.
///
/// Thread safety: every method may be called from any thread; the state is
/// guarded by the broadcast's lock. `take` and `copyNewest` are the reader's
/// and never overlap (a stream calls them under its connection's lock).
package final class Subscription: @unchecked Sendable {
    /// What the feed carries.
    package enum Item: Equatable, Sendable {
        /// An output value.
        case event(OutputEvent)
        /// The client's `Last-Event-ID` is no longer in the log: the snapshot follows, from scratch.
        case reset(lastEventID: UInt64)
        /// The session was disposed: nothing follows.
        case end
    }

    /// Why a feed is over.
    package enum Ending: Equatable, Sendable {
        /// The session ended it (after `.end`).
        case ended
        /// The reader fell more than `maxBufferedBytes` behind.
        case overflow
        /// The reader's side cancelled it (the client left, the server stops).
        case cancelled
    }

    /// What `take` found.
    package enum Take: Equatable, Sendable {
        /// Items were moved into the outbox.
        case items
        /// Nothing now; the reader will be woken when there is.
        case idle
        /// Nothing more, ever.
        case over(Ending)
    }

    private enum Status { case open, ended, over(Ending) }

    /// The reader's place, guarded by the broadcast's lock; what an event needs first.
    private struct Cursor {
        var status = Status.open
        var waits = false
        /// The id of the last event of the log read.
        var position: UInt64
        /// What goes before the log's events: the replay or snapshot, perhaps a reset.
        var initial: [Item]
        var reader: (any SubscriptionReader)?
        var detach: (@Sendable (Subscription) -> Void)?

        /// Over for the reader's sake (it cancelled, or fell behind): drops what
        /// waits, lets go of the reader, and hands back the detach, once.
        mutating func end(_ ending: Ending) -> (@Sendable (Subscription) -> Void)? {
            if case .over = status {} else { status = .over(ending) }
            initial = []
            reader = nil
            waits = false
            defer { detach = nil }
            return detach
        }
    }

    /// The broadcast's `changes` when a take left the reader waiting, `.max`
    /// when it does not wait: while the two are equal there is nothing to take.
    private let waitsSince = Atomic<UInt64>(.max)
    private let broadcast: Broadcast
    /// In the object, next to the rest of what an event reads: the object's
    /// first lines are all the memory of its own an event touches (it is cold
    /// by the time the next event comes). Unchecked: the broadcast's lock
    /// orders every access, and a runtime exclusivity check would cost more.
    @exclusivity(unchecked) private var cursor: Cursor

    /// The most bytes (as encoded) the reader may fall behind before the feed is over.
    package var maxBufferedBytes: Int { broadcast.maxBufferedBytes }

    /// Made by `Broadcast.subscribe`; `detach` tells the session when the feed is over for the reader's sake.
    init(broadcast: Broadcast, initial: [Item], position: UInt64, detach: @escaping @Sendable (Subscription) -> Void) {
        self.broadcast = broadcast
        cursor = Cursor(position: position, initial: initial, detach: detach)
    }

    /// The reader a publication wakes when it has read everything before; set once,
    /// by the reader, and held until `cancel`, which breaks the reader's cycle with it.
    package var reader: (any SubscriptionReader)? {
        get { broadcast.state.withLock { _ in cursor.reader } }
        set { broadcast.state.withLock { _ in cursor.reader = newValue } }
    }

    /// The broadcast wakes the subscription: its reader, if it still waits. Under the broadcast's lock.
    func stopWaiting() -> (any SubscriptionReader)? {
        guard cursor.waits else { return nil }
        cursor.waits = false
        return cursor.reader
    }

    /// Ends the feed now, dropping what waits, and detaches it from its session.
    /// The reader's own act: it is not called back, and the feed lets go of it.
    package func cancel() {
        let detach = broadcast.state.withLock { _ in
            waitsSince.store(.max, ordering: .relaxed)
            return cursor.end(.cancelled)
        }
        detach?(self)
    }

    /// Whether nothing was published, and the feed not finished, since a take
    /// left the reader waiting: then there is nothing to take, and the reader
    /// will be called back when there is. Without the lock; the test `quiet`
    /// hands out (`.max`, not waiting, never holds).
    private var waitsStill: Bool {
        Quiet(broadcast: broadcast, since: waitsSince.load(ordering: .relaxed)).holds
    }

    /// The test `waitsStill` makes, for a reader to keep where it is already
    /// looking: whether nothing was published, and the feed not finished,
    /// since the reader began waiting. nil while the reader does not wait.
    ///
    /// Valid while the subscription lives; it does not see `cancel`, which
    /// is the reader's own act.
    package var quiet: Quiet? {
        let since = waitsSince.load(ordering: .relaxed)
        return since == .max ? nil : Quiet(broadcast: broadcast, since: since)
    }

    /// See `quiet`.
    package struct Quiet: Sendable {
        /// The subscription holds the broadcast, and the test must not outlive it.
        private unowned(unsafe) let broadcast: Broadcast
        private let since: UInt64

        fileprivate init(broadcast: Broadcast, since: UInt64) {
            self.broadcast = broadcast
            self.since = since
        }

        /// Nothing to take yet: the reader will be called back when there is.
        package var holds: Bool { broadcast.changes.load(ordering: .acquiring) == since }
    }

    /// Under the lock, once the reader has read everything: it waits, to be
    /// woken by the next publication or the finish.
    private func wait(_ state: inout Broadcast.State) {
        if !cursor.waits {
            cursor.waits = true
            state.waiting.append(self)
        }
        waitsSince.store(broadcast.changes.load(ordering: .relaxed), ordering: .relaxed)
    }

    /// What `copyNewest` did.
    package enum Copy: Equatable, Sendable {
        /// The newest event's bytes, this many, are in the buffer.
        case copied(Int)
        /// Nothing to take (as `take` would say): the reader waits.
        case idle
        /// Something else to read, or the event does not fit: the reader must `take`.
        case take
    }

    /// `take` for a reader that keeps up, which is nearly all of them: when all
    /// it has not read is the newest event, and its bytes fit in `buffer`,
    /// copies them there under the lock. It takes no reference to the event,
    /// which every reader shares: counting them would have the server's
    /// threads fight over its cache line, event after event.
    package func copyNewest(into buffer: UnsafeMutableRawBufferPointer) -> Copy {
        if waitsStill { return .idle }
        let broadcast = broadcast
        return broadcast.state.withLock { state -> Copy in
            guard case .open = cursor.status, cursor.initial.isEmpty, !state.isFinished,
                  cursor.position + 1 == state.log.lastID,
                  let count = state.log.copyNewest(into: buffer, limit: broadcast.maxBufferedBytes) else { return .take }
            cursor.position = state.log.lastID
            wait(&state)
            return .copied(count)
        }
    }

    /// Moves everything not read yet into `outbox` (which must be empty) in one step.
    package func take(into outbox: inout [Item]) -> Take {
        if waitsStill { return .idle }
        let broadcast = broadcast
        var detach: (@Sendable (Subscription) -> Void)?
        let result = broadcast.state.withLock { state -> Take in
            switch cursor.status {
            case .open: break
            case .ended:
                cursor.status = .over(.ended)
                return .over(.ended)
            case .over(let ending):
                return .over(ending)
            }
            if !cursor.initial.isEmpty { swap(&cursor.initial, &outbox) }
            let lastID = state.log.lastID
            if cursor.position + 1 == lastID, outbox.isEmpty, let newest = state.log.newest,
               newest.encoded.count <= broadcast.maxBufferedBytes {
                // A reader that keeps up (nearly all of them): the newest event, without building a list.
                outbox.append(.event(newest))
                cursor.position = lastID
            } else if cursor.position < lastID {
                guard let events = state.log.unread(after: cursor.position),
                      events.reduce(0, { $0 + $1.encoded.count }) <= broadcast.maxBufferedBytes else {
                    outbox = []
                    detach = cursor.end(.overflow)
                    return .over(.overflow)
                }
                // A value in the replay that a newer one of its driver supersedes goes.
                if !outbox.isEmpty { outbox.removeAll { if case .event(let old) = $0 { return old.kind == .driver && state.log.latest(old.name) !== old } else { return false } } }
                for event in events { outbox.append(.event(event)) }
                cursor.position = state.log.lastID
            }
            if state.isFinished {
                outbox.append(.end)
                cursor.status = .ended
                return .items
            }
            wait(&state)
            return outbox.isEmpty ? .idle : .items
        }
        detach?(self)
        return result
    }

    /// Whether the feed is over or ending.
    package var isOver: Bool {
        broadcast.state.withLock { state in
            if case .open = cursor.status { return state.isFinished }
            return true
        }
    }
}

/// Who takes a subscription's items: woken when there is something to take.
package protocol SubscriptionReader: AnyObject, Sendable {
    /// The subscription has items (or is over) after a take that read everything.
    func subscriptionHasItems()
}
