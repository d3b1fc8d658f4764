import Foundation

/// One client's feed of a session's events: first what it missed (or the
/// snapshot), then each event as the session logs it, until the session ends
/// or the client leaves. Grammar: `reset? event* end?`.
///
/// The queue is bounded: a newer value of a driver replaces an older one still
/// waiting, and when what waits exceeds `maxBufferedBytes` the feed is over
/// (`.overflow`): the client resumes with `Last-Event-ID` rather than the
/// server holding its backlog. The session pushes; the reader takes everything
/// waiting in one call. A reader that found nothing is called back through
/// its `reader` (outside any lock) once there is something, or the feed is over.
///
/// Thread safety: every method may be called from any thread.
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

    private enum Status { case open, finishing, over(Ending) }

    /// Everything the lock guards.
    private struct Feed {
        var queue: [Item]
        var queuedBytes = 0
        var status = Status.open
        var readerWaits = false
        var waker: Waker?
        var detach: (@Sendable (Subscription) -> Void)?

        mutating func end(_ ending: Ending) {
            status = .over(ending)
            queue = []
            queuedBytes = 0
        }

        mutating func wake() -> Waker? {
            guard readerWaits else { return nil }
            readerWaits = false
            return waker
        }
    }

    /// The most bytes (as encoded) that may wait before the feed is over.
    package let maxBufferedBytes: Int
    private let feed: Locked<Feed>

    /// A feed starting with `initial`; `detach` tells the session when the reader cancels.
    init(initial: [Item], maxBufferedBytes: Int, detach: @escaping @Sendable (Subscription) -> Void) {
        self.maxBufferedBytes = maxBufferedBytes
        feed = Locked(Feed(queue: initial, queuedBytes: initial.reduce(0) { $0 + Self.size(of: $1) }, detach: detach))
    }

    /// The reader a push wakes when it found nothing before; set once, by the
    /// reader, and held until `cancel`, which breaks the reader's cycle with it.
    package var reader: (any SubscriptionReader)? {
        get { feed.withLock { $0.waker?.reader } }
        set { feed.withLock { $0.waker = newValue.map(Waker.init) } }
    }

    /// The reader, in a class of its own: the fan-out gathers these in an array of
    /// plain references and wakes them in one burst after queueing to everyone.
    final class Waker: Sendable {
        let reader: any SubscriptionReader
        init(_ reader: any SubscriptionReader) { self.reader = reader }
        func wake() { reader.subscriptionHasItems() }
    }

    private static func size(of item: Item) -> Int {
        if case .event(let event) = item { return event.encoded.count }
        return 64
    }

    /// What `push` did: whether the feed is still open, and the reader to wake, if it waits.
    struct Pushed {
        let isOpen: Bool
        let waker: Waker?
    }

    /// Queues `event`, replacing a waiting older value of the same driver, and
    /// wakes a waiting reader; returns false if the feed is over (now or before).
    @discardableResult
    func push(_ event: OutputEvent) -> Bool {
        let pushed = pushWithoutWaking(event)
        pushed.waker?.wake()
        return pushed.isOpen
    }

    /// Queues `event` as `push` does but leaves waking the reader to the caller,
    /// who can then wake every reader of a fan-out in one burst.
    func pushWithoutWaking(_ event: OutputEvent) -> Pushed {
        feed.withLock { feed -> Pushed in
            guard case .open = feed.status else { return Pushed(isOpen: false, waker: nil) }
            if event.kind == .driver, !feed.queue.isEmpty, let index = feed.queue.firstIndex(where: {
                if case .event(let old) = $0 { return old.kind == .driver && old.name == event.name }
                return false
            }) {
                feed.queuedBytes -= Self.size(of: feed.queue.remove(at: index))
            }
            feed.queue.append(.event(event))
            feed.queuedBytes += event.encoded.count
            guard feed.queuedBytes <= maxBufferedBytes else {
                feed.end(.overflow)
                return Pushed(isOpen: false, waker: feed.wake())
            }
            return Pushed(isOpen: true, waker: feed.wake())
        }
    }

    /// Ends the feed after what waits, with `.end` (the session was disposed).
    func finish() {
        let waker = feed.withLock { feed -> Waker? in
            guard case .open = feed.status else { return nil }
            feed.queue.append(.end)
            feed.status = .finishing
            return feed.wake()
        }
        waker?.wake()
    }

    /// Ends the feed now, dropping what waits, and detaches it from its session.
    /// The reader's own act: it is not called back, and the feed lets go of it.
    package func cancel() {
        let detach = feed.withLock { feed -> (@Sendable (Subscription) -> Void)? in
            if case .over = feed.status {} else { feed.end(.cancelled) }
            feed.waker = nil
            feed.readerWaits = false
            defer { feed.detach = nil }
            return feed.detach
        }
        detach?(self)
    }

    /// Moves everything waiting into `outbox` (which must be empty) in one step.
    package func take(into outbox: inout [Item]) -> Take {
        feed.withLock { feed in
            if !feed.queue.isEmpty {
                swap(&feed.queue, &outbox)
                feed.queuedBytes = 0
                return .items
            }
            switch feed.status {
            case .open:
                feed.readerWaits = true
                return .idle
            case .finishing:
                feed.status = .over(.ended)
                return .over(.ended)
            case .over(let ending):
                return .over(ending)
            }
        }
    }

    /// Whether the feed is over or finishing.
    package var isOver: Bool {
        feed.withLock {
            if case .open = $0.status { return false }
            return true
        }
    }
}

/// Who takes a subscription's items: woken when there is something to take.
package protocol SubscriptionReader: AnyObject, Sendable {
    /// The subscription has items (or is over) after a `take` that found nothing.
    func subscriptionHasItems()
}
