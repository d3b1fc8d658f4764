import Foundation
import Synchronization

/// One client's feed of a session's events, as bytes: first what it missed
/// (or the snapshot), then each event as the session logs it, until the
/// session ends or the client leaves. Grammar of its items:
/// `reset? event* end?`, each written in the application's `EventWireFormat`
/// after the subscription's `itemPrefix`.
///
/// The reader has one way in: `read(into:)` fills a buffer and says `.bytes`,
/// `.idle` (the reader's `wake` is called once there is more) or `.over`.
/// A read that writes fewer bytes than the buffer holds stops between two
/// items, so a reader may go on to another subscription's items.
///
/// A subscription is a position in its session's `Broadcast`: the session
/// publishes each event once, and the reader takes everything it has not read
/// in one step, a driver's older values coalesced into its newest. A reader
/// that falls more than `maxBufferedBytes` behind, or behind a signal the log
/// no longer retains, is over (`.overflow`): the client resumes with
/// `Last-Event-ID` rather than the server holding its backlog. A reader that
/// has read everything (the read that emptied its part of the log, or one that
/// found nothing) is woken through its `wake` (outside any lock) once there is
/// something, or the feed is over; so the read that finds nothing after it
/// needs no lock. A reader that keeps up, nearly all of them, has the newest
/// event's bytes copied straight into its buffer under the lock.
///
/// Thread safety: `read` and `idleCheck` are the reader's and never
/// overlap (a stream calls them under its own lock); `cancel` and `wake` may
/// be called from any thread. The position is guarded by the broadcast's lock.
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
        /// The session moved to another process (a cluster's node claimed it):
        /// the client reconnects, and its request reaches the session there.
        case moved
    }

    /// What `read` did.
    package enum Read: Equatable, Sendable {
        /// This many bytes were written, `events` of the items whole or begun
        /// events; fewer bytes than the buffer holds only after a whole item.
        case bytes(Int, events: Int)
        /// Nothing now; the reader's `wake` is called when there is.
        case idle
        /// Nothing more, ever.
        case over(Ending)
    }

    /// What `take` found.
    enum Take: Equatable, Sendable {
        /// Items were moved into the outbox.
        case items
        /// Nothing now; the reader will be woken when there is.
        case idle
        /// Nothing more, ever.
        case over(Ending)
    }

    private enum Status {
        case open, ended
        case over(Ending)
    }

    /// The reader's place, guarded by the broadcast's lock; what an event needs first.
    private struct Cursor {
        var status = Status.open
        var waits = false
        /// The id of the last event of the log read.
        var position: UInt64
        /// What goes before the log's events: the replay or snapshot, perhaps a reset.
        var initial: [Item]
        var wake: (any SubscriptionWake)?
        var detach: (@Sendable (Subscription) -> Void)?

        /// Over for the reader's sake (it cancelled, or fell behind): drops what
        /// waits, lets go of the reader, and hands back the detach, once.
        mutating func end(_ ending: Ending) -> (@Sendable (Subscription) -> Void)? {
            if case .over = status {} else { status = .over(ending) }
            initial = []
            wake = nil
            waits = false
            defer { detach = nil }
            return detach
        }
    }

    /// The broadcast's `changes` when a take left the reader waiting, `.max`
    /// when it does not wait: while the two are equal there is nothing to take.
    private let waitsSince = Atomic<UInt64>(.max)
    private let broadcast: Broadcast
    /// Written before each item (a multiplexed stream's session line).
    private let itemPrefix: [UInt8]
    /// The reader's: items taken and not all written yet, nil nearly always
    /// (a reader that keeps up has each event copied whole). Unchecked: only
    /// `read` touches it, and its reader never overlaps two reads.
    @exclusivity(unchecked) private var pending: Pending?
    /// In the object, next to the rest of what an event reads: the object's
    /// first lines are all the memory of its own an event touches (it is cold
    /// by the time the next event comes). Unchecked: the broadcast's lock
    /// orders every access, and a runtime exclusivity check would cost more.
    @exclusivity(unchecked) private var cursor: Cursor

    /// The most bytes (as encoded) the reader may fall behind before the feed is over.
    package var maxBufferedBytes: Int { broadcast.maxBufferedBytes }

    /// Items taken and not all written yet: the bytes of the one being
    /// written, and those that follow it.
    private final class Pending {
        var current: [UInt8] = []
        var offset = 0
        var outbox: [Item]
        var index = 0

        init(_ outbox: [Item]) { self.outbox = outbox }

        var isWritten: Bool { offset >= current.count && index >= outbox.count }
    }

    /// Made by `Broadcast.subscribe`; `detach` tells the session when the feed is over for the reader's sake.
    init(
        broadcast: Broadcast, initial: [Item], position: UInt64, itemPrefix: [UInt8] = [],
        detach: @escaping @Sendable (Subscription) -> Void
    ) {
        self.broadcast = broadcast
        self.itemPrefix = itemPrefix
        cursor = Cursor(position: position, initial: initial, detach: detach)
    }

    /// Who a publication wakes when the reader has read everything before; set
    /// once, by the reader, and held until `cancel`, which breaks the reader's
    /// cycle with it.
    package var wake: (any SubscriptionWake)? {
        get { broadcast.state.withLock { _ in cursor.wake } }
        set { broadcast.state.withLock { _ in cursor.wake = newValue } }
    }

    /// The broadcast wakes the subscription: its reader, if it still waits. Under the broadcast's lock.
    func stopWaiting() -> (any SubscriptionWake)? {
        guard cursor.waits else { return nil }
        cursor.waits = false
        return cursor.wake
    }

    /// Fills `buffer` with the items not read yet, as bytes, up to its size.
    package func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        if pending == nil {
            // A reader that keeps up: the newest event's bytes straight into the buffer.
            switch copyNewest(into: buffer) {
            case .copied(let count): return .bytes(count, events: 1)
            case .idle: return .idle
            case .take: break
            }
            var outbox: [Item] = []
            switch take(into: &outbox) {
            case .items: pending = Pending(outbox)
            case .idle: return .idle
            case .over(let ending): return .over(ending)
            }
        }
        return writePending(into: buffer)
    }

    /// Writes what `pending` holds, as far as the buffer goes; lets go of it once written.
    private func writePending(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        let pending = pending!
        var written = 0, events = 0
        while written < buffer.count {
            if pending.offset < pending.current.count {
                let count = min(pending.current.count - pending.offset, buffer.count - written)
                pending.current.withUnsafeBytes { source in
                    buffer.baseAddress!.advanced(by: written).copyMemory(from: source.baseAddress!.advanced(by: pending.offset), byteCount: count)
                }
                pending.offset += count
                written += count
                continue
            }
            guard pending.index < pending.outbox.count else { break }
            let item = pending.outbox[pending.index]
            pending.index += 1
            if case .event = item { events += 1 }
            let bytes = broadcast.format.encode(item)
            pending.current = itemPrefix.isEmpty ? bytes : itemPrefix + bytes
            pending.offset = 0
        }
        if pending.isWritten { self.pending = nil }
        return .bytes(written, events: events)
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
    /// will be woken when there is. Without the lock; the check `idleCheck`
    /// hands out (`.max`, not waiting, never holds).
    private var isStillIdle: Bool {
        IdleCheck(broadcast: broadcast, since: waitsSince.load(ordering: .relaxed)).isStillIdle
    }

    /// The check `isStillIdle` makes, for a reader to keep where it is already
    /// looking (its own first cache line) rather than call `read` to learn
    /// that it would say `.idle`: whether nothing was published, and the feed
    /// not finished, since the reader began waiting. nil while the reader
    /// does not wait, or has bytes of its own to write (an item it read only
    /// part of).
    ///
    /// Valid while the subscription lives; it does not see `cancel`, which
    /// is the reader's own act.
    package var idleCheck: IdleCheck? {
        guard pending == nil else { return nil }
        let since = waitsSince.load(ordering: .relaxed)
        return since == .max ? nil : IdleCheck(broadcast: broadcast, since: since)
    }

    /// See `idleCheck`.
    package struct IdleCheck: Sendable {
        /// The subscription holds the broadcast, and the check must not outlive it.
        private unowned(unsafe) let broadcast: Broadcast
        private let since: UInt64

        fileprivate init(broadcast: Broadcast, since: UInt64) {
            self.broadcast = broadcast
            self.since = since
        }

        /// Nothing to read yet: the reader will be woken when there is.
        package var isStillIdle: Bool { broadcast.changes.load(ordering: .acquiring) == since }
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
    private enum Copy: Equatable, Sendable {
        /// The newest event's bytes, this many, are in the buffer.
        case copied(Int)
        /// Nothing to take (as `take` would say): the reader waits.
        case idle
        /// Something else to read, or the event does not fit: the reader must `take`.
        case take
    }

    /// `take` for a reader that keeps up, which is nearly all of them: when all
    /// it has not read is the newest event, and its bytes (after the prefix)
    /// fit in `buffer`, copies them there under the lock. It takes no
    /// reference to the event, which every reader shares: counting them would
    /// have the server's threads fight over its cache line, event after event.
    private func copyNewest(into buffer: UnsafeMutableRawBufferPointer) -> Copy {
        if isStillIdle { return .idle }
        let broadcast = broadcast
        return broadcast.state.withLock { state -> Copy in
            guard case .open = cursor.status, cursor.initial.isEmpty, !state.isFinished,
                cursor.position + 1 == state.log.lastID,
                let count = itemPrefix.isEmpty
                    ? state.log.copyNewest(into: buffer, limit: broadcast.maxBufferedBytes)
                    : state.log.copyNewest(prefix: itemPrefix, into: buffer, limit: broadcast.maxBufferedBytes)
            else { return .take }
            cursor.position = state.log.lastID
            wait(&state)
            return .copied(count)
        }
    }

    /// Moves everything not read yet into `outbox` (which must be empty) in one
    /// step: the items `read` writes (and the tests of coalescing read).
    func take(into outbox: inout [Item]) -> Take {
        if isStillIdle { return .idle }
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
                newest.encoded.count <= broadcast.maxBufferedBytes
            {
                // A reader that keeps up (nearly all of them): the newest event, without building a list.
                outbox.append(.event(newest))
                cursor.position = lastID
            } else if cursor.position < lastID {
                guard let events = state.log.unread(after: cursor.position),
                    events.reduce(0, { $0 + $1.encoded.count }) <= broadcast.maxBufferedBytes
                else {
                    outbox = []
                    detach = cursor.end(.overflow)
                    return .over(.overflow)
                }
                // A value in the replay that a newer one of its driver supersedes goes.
                if !outbox.isEmpty {
                    // (Not an output sent as changes: those that follow are to it.)
                    outbox.removeAll {
                        guard case .event(let old) = $0 else { return false }
                        return old.kind == .driver && !state.log.isLatest(old) && !state.log.isSentAsChanges(old.name)
                    }
                }
                for event in events { outbox.append(.event(event)) }
                cursor.position = state.log.lastID
            }
            if state.isFinished {
                if state.isMoved {
                    // What was read stays unsent: the client resumes from its last id where the session went.
                    outbox = []
                    detach = cursor.end(.moved)
                    return .over(.moved)
                }
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

/// Who reads a subscription: woken when there is something to read.
package protocol SubscriptionWake: AnyObject, Sendable {
    /// The subscription has items (or is over) after a read that read everything.
    func subscriptionHasItems()
}
