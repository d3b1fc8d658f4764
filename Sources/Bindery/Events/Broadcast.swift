import Foundation
import Synchronization

/// A session's event log as its subscriptions read it: one log, shared, that
/// each reader reads from its own position, rather than a queue per reader
/// that every event is pushed into.
///
/// Publishing an event therefore costs the same however many subscriptions
/// keep up, plus a wake for each reader that was waiting for it; a reader
/// takes what it has not read, coalesced (see `EventLog.unread(after:)`), in
/// one step. The log is bounded, so a reader that falls behind holds no memory
/// of its own: it is over (`.overflow`) when what it has not read exceeds its
/// byte limit or includes a signal the log no longer retains.
///
/// Threading: one lock guards the log, and the state of every subscription of
/// it. `publish`, `finish` and `subscribe` are called in the session's turns;
/// the log's readers (`withLog`) and the subscriptions' methods from any thread.
final class Broadcast: @unchecked Sendable {
    struct State {
        var log: EventLog
        /// The session was disposed: readers end after what they have not read.
        var isFinished = false
        /// ...because it moved to another process: readers end at once, without `.end`.
        var isMoved = false
        /// Subscriptions whose reader has read everything and waits to be woken.
        var waiting: [Subscription] = []
    }

    let state: Locked<State>
    /// Counts the publications and the finish, each changed under the lock: a
    /// reader that began waiting at the current count has nothing to take, and
    /// learns it without the lock (see `Subscription.take`).
    let changes = Atomic<UInt64>(0)
    /// The most bytes (as encoded) a reader may fall behind before it is over.
    let maxBufferedBytes: Int
    /// How the subscriptions write their items: the log's.
    let format: EventWireFormat
    /// The readers the publications wake: confined to the session's turns, and
    /// kept between them for its capacity.
    private var woken: [any SubscriptionWake] = []
    /// Publications keep the readers they find waiting in `woken` until
    /// `releaseWakes`, rather than waking them at once. Confined to the session's turns.
    private var holdsWakes = false

    /// Counts the publications for the application's metrics.
    private let published: PublicationCount

    init(log: EventLog, maxBufferedBytes: Int, published: PublicationCount = PublicationCount()) {
        state = Locked(State(log: log))
        format = log.format
        self.maxBufferedBytes = maxBufferedBytes
        self.published = published
    }

    /// Reads or changes the log under the lock.
    func withLog<T>(_ body: (inout EventLog) throws -> T) rethrows -> T {
        try state.withLock { try body(&$0.log) }
    }

    /// Starts the log again from `values` at `lastID` (`EventLog.seed`), and
    /// wakes the readers: those behind get a reset and the snapshot.
    func seed(_ values: [(name: String, json: Data)], through lastID: UInt64) {
        var woken: [any SubscriptionWake] = []
        state.withLock { state in
            state.log.seed(values, through: lastID)
            changes.add(1, ordering: .releasing)
            Self.takeWaiting(&state, into: &woken)
        }
        woken.forEach { $0.subscriptionHasItems() }
    }

    /// Numbers and records a new value of output `name`, then wakes every
    /// reader that was waiting, in one burst after the lock is released (or
    /// at `releaseWakes`, while wakes are held).
    /// With `whole`, `json` is the changes since the output's latest event (see `EventLog.append`).
    func publish(name: String, kind: OutputKind, json: Data, whole: (() throws -> Data)? = nil) -> OutputEvent {
        let event = append(name: name, kind: kind, json: json, whole: whole)
        if !holdsWakes { wakeWoken() }
        return event
    }

    /// Appends under the lock and moves the waiting readers into `woken`.
    private func append(name: String, kind: OutputKind, json: Data, whole: (() throws -> Data)?) -> OutputEvent {
        // A local (each change to a property is an exclusivity check), swapped
        // in and out rather than copied: the closure captures it, which keeps it
        // alive to the end of its scope, and a copy still alive then would make
        // `wakeWoken` copy every reader (one retain each) before it could pop one.
        var woken: [any SubscriptionWake] = []
        swap(&woken, &self.woken)
        let event = state.withLock { state -> OutputEvent in
            let event = state.log.append(name: name, kind: kind, json: json, whole: whole)
            changes.add(1, ordering: .releasing)
            Self.takeWaiting(&state, into: &woken)
            return event
        }
        swap(&woken, &self.woken)
        published.add()
        return event
    }

    /// Holds the wakes of the publications that follow until `releaseWakes`:
    /// a turn that answers a request (an input and its snapshot) answers it
    /// before its readers compete for the lock and the server's event loop,
    /// and wakes each of them once however many events it published.
    func holdWakes() { holdsWakes = true }

    /// Wakes the readers the publications found waiting since `holdWakes`.
    func releaseWakes() {
        holdsWakes = false
        wakeWoken()
    }

    /// Wakes the readers in `woken`, outside the lock.
    private func wakeWoken() {
        var woken: [any SubscriptionWake] = []
        swap(&woken, &self.woken)
        while let reader = woken.popLast() { reader.subscriptionHasItems() }
        swap(&woken, &self.woken)
    }

    /// Ends every subscription after what it has not read, with `.end`.
    func finish(moved: Bool = false) {
        var woken: [any SubscriptionWake] = []
        state.withLock { state in
            state.isFinished = true
            state.isMoved = moved
            changes.add(1, ordering: .releasing)
            Self.takeWaiting(&state, into: &woken)
        }
        woken.forEach { $0.subscriptionHasItems() }
    }

    /// A subscription that starts with `initial` and then reads what the log
    /// gets after `position` (the log's last id when it was made), writing
    /// `itemPrefix` before each item.
    func subscribe(initial: [Subscription.Item], itemPrefix: [UInt8] = [], detach: @escaping @Sendable (Subscription) -> Void) -> Subscription {
        let position = state.withLock { $0.log.lastID }
        return Subscription(broadcast: self, initial: initial, position: position, itemPrefix: itemPrefix, detach: detach)
    }

    /// Moves the readers of the waiting subscriptions (those not cancelled since) into `woken`.
    private static func takeWaiting(_ state: inout State, into woken: inout [any SubscriptionWake]) {
        // Moved out one by one, which counts no reference and keeps the capacity
        // (removeAll(keepingCapacity:) takes a slow generic path). Reversed here
        // and again as `wakeWoken` pops them: woken in the order they began to wait.
        while let subscription = state.waiting.popLast() {
            if let reader = subscription.stopWaiting() { woken.append(reader) }
        }
    }
}
