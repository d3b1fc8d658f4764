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
/// `onReady` (outside any lock) once there is something, or the feed is over.
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
        /// Nothing now; `onReady` will be called when there is.
        case idle
        /// Nothing more, ever.
        case over(Ending)
    }

    private enum State { case open, finishing, over(Ending) }

    /// The most bytes (as encoded) that may wait before the feed is over.
    package let maxBufferedBytes: Int
    private let lock = NSLock()
    // Guarded by `lock`.
    private var queue: [Item]
    private var queuedBytes = 0
    private var state = State.open
    private var readerWaits = false
    private var onReadyHandler: (@Sendable () -> Void)?
    private var detach: (@Sendable (Subscription) -> Void)?

    /// A feed starting with `initial`; `detach` tells the session when the reader cancels.
    init(initial: [Item], maxBufferedBytes: Int, detach: @escaping @Sendable (Subscription) -> Void) {
        self.maxBufferedBytes = maxBufferedBytes
        self.detach = detach
        queue = initial
        queuedBytes = initial.reduce(0) { $0 + Self.size(of: $1) }
    }

    /// Called when a reader that found nothing can take something; set once, by the reader.
    package var onReady: (@Sendable () -> Void)? {
        get { lock.withLock { onReadyHandler } }
        set { lock.withLock { onReadyHandler = newValue } }
    }

    private static func size(of item: Item) -> Int {
        if case .event(let event) = item { return event.encoded.count }
        return 64
    }

    /// Queues `event`, replacing a waiting older value of the same driver;
    /// returns false if the feed is over (now or before).
    @discardableResult
    func push(_ event: OutputEvent) -> Bool {
        var isOpen = true
        let wake = lock.withLock { () -> (@Sendable () -> Void)? in
            guard case .open = state else {
                isOpen = false
                return nil
            }
            if event.kind == .driver, !queue.isEmpty, let index = queue.firstIndex(where: {
                if case .event(let old) = $0 { return old.kind == .driver && old.name == event.name }
                return false
            }) {
                queuedBytes -= Self.size(of: queue.remove(at: index))
            }
            queue.append(.event(event))
            queuedBytes += event.encoded.count
            if queuedBytes > maxBufferedBytes {
                isOpen = false
                endLocked(.overflow)
            }
            return wakeLocked()
        }
        wake?()
        return isOpen
    }

    /// Ends the feed after what waits, with `.end` (the session was disposed).
    func finish() {
        let wake = lock.withLock { () -> (@Sendable () -> Void)? in
            guard case .open = state else { return nil }
            queue.append(.end)
            state = .finishing
            return wakeLocked()
        }
        wake?()
    }

    /// Ends the feed now, dropping what waits, and detaches it from its session.
    /// The reader's own act: it is not called back (`onReady` is dropped).
    package func cancel() {
        let detach = lock.withLock { () -> (@Sendable (Subscription) -> Void)? in
            if case .over = state {} else { endLocked(.cancelled) }
            onReadyHandler = nil
            readerWaits = false
            defer { self.detach = nil }
            return self.detach
        }
        detach?(self)
    }

    /// Moves everything waiting into `outbox` (which must be empty) in one step.
    package func take(into outbox: inout [Item]) -> Take {
        lock.withLock {
            if !queue.isEmpty {
                swap(&queue, &outbox)
                queuedBytes = 0
                return .items
            }
            switch state {
            case .open:
                readerWaits = true
                return .idle
            case .finishing:
                state = .over(.ended)
                return .over(.ended)
            case .over(let ending):
                return .over(ending)
            }
        }
    }

    /// Whether the feed is over or finishing.
    package var isOver: Bool {
        lock.withLock {
            if case .open = state { return false }
            return true
        }
    }

    private func endLocked(_ ending: Ending) {
        state = .over(ending)
        queue = []
        queuedBytes = 0
    }

    private func wakeLocked() -> (@Sendable () -> Void)? {
        guard readerWaits else { return nil }
        readerWaits = false
        return onReadyHandler
    }
}
