import BinderyRx
import Foundation

/// A scheduler with virtual time, as in RxTest: work runs in time order (ties
/// in the order scheduled) when the test calls `start()` or `advanceTo(_:)`;
/// nothing sleeps. Work that operators schedule (`schedule`, `scheduleRelative`)
/// due now or earlier runs one tick later when `simulateProcessingDelay` is on;
/// what the test itself places in time (`scheduleAt`, hot and cold events,
/// `start`'s creation, subscription and disposal) runs at exactly that time, as
/// RxTest places it with `scheduleAbsoluteVirtual`.
///
/// Thread safety: use from the test's thread only.
public final class TestScheduler: SchedulerType {
    /// The defaults of `start`: create at 100, subscribe at 200, dispose at 1000.
    public enum Defaults {
        /// When `start` creates the observable.
        public static let created: TestTime = 100
        /// When `start` subscribes.
        public static let subscribed: TestTime = 200
        /// When `start` disposes.
        public static let disposed: TestTime = 1000
    }

    private struct Item {
        let time: TestTime
        let id: Int
        let action: () -> Void
        let cancel: BooleanDisposable
    }

    /// A point in virtual time, by the name RxTest's `VirtualTimeScheduler` gives it.
    public typealias VirtualTime = TestTime
    /// A span of virtual time, in ticks, by the name RxTest's `VirtualTimeScheduler` gives it.
    public typealias VirtualTimeInterval = TestTime

    /// The current virtual time.
    public private(set) var clock: TestTime
    private let resolution: Double
    private let simulateProcessingDelay: Bool
    private var queue: [Item] = []
    private var nextId = 0
    private var running = false

    /// A scheduler at `initialClock`; one tick is `resolution` seconds.
    public init(initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true) {
        clock = initialClock
        self.resolution = resolution
        self.simulateProcessingDelay = simulateProcessingDelay
    }

    /// The virtual clock as a date (ticks times resolution after the reference date).
    public var now: RxTime { Date(timeIntervalSince1970: Double(clock) * resolution) }

    /// Runs `action` at virtual time `time`; a time not in the future runs next, without moving the clock back.
    @discardableResult
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) -> Disposable {
        let cancel = BooleanDisposable()
        queue.append(Item(time: time, id: nextId, action: action, cancel: cancel))
        nextId += 1
        return cancel
    }

    /// Where work scheduled relative to now lands, as RxTest's: a time not in the future
    /// runs one tick later while `simulateProcessingDelay` is on, else now.
    public func adjustScheduledTime(_ time: TestTime) -> TestTime {
        time <= clock ? clock + (simulateProcessingDelay ? 1 : 0) : time
    }

    private func ticks(_ interval: RxTimeInterval) -> TestTime {
        switch interval {
        case .seconds(let s): return Int((Double(s) / resolution).rounded())
        case .milliseconds(let ms): return Int((Double(ms) / 1_000 / resolution).rounded())
        case .microseconds(let us): return Int((Double(us) / 1_000_000 / resolution).rounded())
        case .nanoseconds(let ns): return Int((Double(ns) / 1_000_000_000 / resolution).rounded())
        case .never: return Int.max
        @unknown default: return Int.max
        }
    }

    /// Runs `action` one tick later (with processing delay) or now.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleRelative(state, dueTime: .microseconds(0), action: action)
    }

    /// Runs `action` after `dueTime` in virtual time.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        let delta = ticks(dueTime)
        guard delta != Int.max else { return Disposables.create() }
        let inner = SingleAssignmentDisposable()
        let cancel = scheduleAt(adjustScheduledTime(clock + delta)) { inner.setDisposable(action(state)) }
        return Disposables.create(cancel, inner)
    }

    /// Runs `action` at exactly the virtual time `time` (RxTest's way to place work; `scheduleAt` without state).
    public func scheduleAbsoluteVirtual<StateType>(_ state: StateType, time: VirtualTime, action: @escaping (StateType) -> Disposable) -> Disposable {
        let inner = SingleAssignmentDisposable()
        let cancel = scheduleAt(time) { inner.setDisposable(action(state)) }
        return Disposables.create(cancel, inner)
    }

    /// Runs `action` exactly `dueTime` ticks after the current virtual time.
    public func scheduleRelativeVirtual<StateType>(_ state: StateType, dueTime: VirtualTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleAbsoluteVirtual(state, time: clock + dueTime, action: action)
    }

    /// Runs every scheduled item in time order until none is left or `stop()` is called.
    public func start() {
        guard !running else { return }
        advance(until: Int.max)
    }

    /// Runs scheduled items up to and including `time`, then sets the clock to `time` (it never goes back).
    public func advanceTo(_ time: TestTime) {
        precondition(!running, "The scheduler is already running")
        advance(until: time)
        clock = max(clock, time)
    }

    /// Moves the clock forward by `ticks` without running anything.
    public func sleep(_ ticks: TestTime) {
        precondition(ticks >= 0, "Can't sleep into the past")
        clock += ticks
    }

    /// Stops `start()` or `advanceTo(_:)` after the item that is running.
    public func stop() { running = false }

    private func advance(until limit: TestTime) {
        running = true
        while running, let index = nextIndex(), queue[index].time <= limit {
            let item = queue.remove(at: index)
            if item.time > clock { clock = item.time }
            if !item.cancel.isDisposed { item.action() }
        }
        running = false
    }

    private func nextIndex() -> Int? {
        guard !queue.isEmpty else { return nil }
        var best = 0
        for index in queue.indices.dropFirst() {
            let item = queue[index], current = queue[best]
            if item.time < current.time || (item.time == current.time && item.id < current.id) { best = index }
        }
        return best
    }

    /// A hot observable emitting `events` at their absolute times.
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        HotObservable(scheduler: self, recordedEvents: events)
    }

    /// A cold observable emitting `events` relative to each subscription.
    public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        ColdObservable(scheduler: self, recordedEvents: events)
    }

    /// An observer that records events with their virtual times.
    public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
        TestableObserver(scheduler: self)
    }

    /// Creates the observable at `created`, subscribes at `subscribed`, disposes at `disposed`, runs everything, and returns the recording.
    /// `create` may return any observable-convertible sequence (an `Observable`, a `Driver`, a `Single`).
    public func start<Element, Source: ObservableConvertibleType>(created: TestTime, subscribed: TestTime, disposed: TestTime, create: @escaping () -> Source) -> TestableObserver<Element> where Source.Element == Element {
        var source: Observable<Element>?
        var subscription: Disposable?
        let observer = createObserver(Element.self)
        scheduleAt(created) { source = create().asObservable() }
        scheduleAt(subscribed) { subscription = source?.subscribe(observer) }
        scheduleAt(disposed) { subscription?.dispose() }
        start()
        return observer
    }

    /// `start` with the default times 100, 200, 1000.
    public func start<Element, Source: ObservableConvertibleType>(_ create: @escaping () -> Source) -> TestableObserver<Element> where Source.Element == Element {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: Defaults.disposed, create: create)
    }

    /// `start` with the default creation and subscription times, disposing at `disposed`.
    public func start<Element, Source: ObservableConvertibleType>(disposed: TestTime, create: @escaping () -> Source) -> TestableObserver<Element> where Source.Element == Element {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: disposed, create: create)
    }
}

extension TestScheduler: CustomDebugStringConvertible {
    /// The clock and when the work not yet run is due, for a test's failure message.
    public var debugDescription: String {
        let due = queue.filter { !$0.cancel.isDisposed }.sorted { ($0.time, $0.id) < ($1.time, $1.id) }.map { "\($0.time)" }
        return "TestScheduler(clock: \(clock), due: [\(due.joined(separator: ", "))])"
    }
}
