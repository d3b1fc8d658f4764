import Foundation

/// A scheduler whose clock moves only when it runs the work it was given, in time order
/// (ties in scheduling order): RxSwift's base of test and historical schedulers.
///
/// Threading: not thread-safe; schedule, run and read the clock from one thread.
open class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: SchedulerType {
    /// A point in this scheduler's virtual time.
    public typealias VirtualTime = Converter.VirtualTimeUnit
    /// A span of this scheduler's virtual time.
    public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

    private final class Item: Disposable {
        let action: () -> Disposable
        let time: VirtualTime
        let id: Int
        let disposable = SingleAssignmentDisposable()

        init(action: @escaping () -> Disposable, time: VirtualTime, id: Int) {
            self.action = action
            self.time = time
            self.id = id
        }

        func dispose() { disposable.dispose() }
    }

    private let converter: Converter
    private var currentClock: VirtualTime
    private var running = false
    private var queue: [Item] = []
    private var nextId = 0

    /// A scheduler at `initialClock`, converting time with `converter`.
    public init(initialClock: VirtualTime, converter: Converter) {
        currentClock = initialClock
        self.converter = converter
    }

    /// The current virtual time, as a date.
    public var now: RxTime { converter.convertFromVirtualTime(clock) }

    /// The current virtual time.
    public var clock: VirtualTime { currentClock }

    /// Schedules `action` at the current virtual time, after what is already due then.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleRelative(state, dueTime: .microseconds(0), action: action)
    }

    /// Schedules `action` `dueTime` after now.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        let time = dueTime == .never ? Date.distantFuture : now.addingTimeInterval(dueTime.seconds)
        return scheduleAbsoluteVirtual(state, time: adjustScheduledTime(converter.convertToVirtualTime(time)), action: action)
    }

    /// Schedules `action` `dueTime` virtual units after the current virtual time.
    public func scheduleRelativeVirtual<StateType>(_ state: StateType, dueTime: VirtualTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleAbsoluteVirtual(state, time: converter.offsetVirtualTime(clock, offset: dueTime), action: action)
    }

    /// Schedules `action` at the virtual time `time`.
    public func scheduleAbsoluteVirtual<StateType>(_ state: StateType, time: VirtualTime, action: @escaping (StateType) -> Disposable) -> Disposable {
        let item = Item(action: { action(state) }, time: time, id: nextId)
        nextId += 1
        let index = queue.firstIndex { isEarlier(item, than: $0) } ?? queue.endIndex
        queue.insert(item, at: index)
        return item
    }

    /// The time a relative schedule lands on; subclasses may move it (RxTest's processing delay).
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime { time }

    /// Runs everything scheduled, moving the clock to each item's time, until none is left or `stop()`.
    public func start() {
        guard !running else { return }
        running = true
        while running, let next = takeNext() {
            if converter.compareVirtualTime(next.time, clock) == .greaterThan { currentClock = next.time }
            next.disposable.setDisposable(next.action())
        }
        running = false
    }

    /// Runs what is due up to `virtualTime`, then sets the clock to it.
    public func advanceTo(_ virtualTime: VirtualTime) {
        precondition(!running, "Scheduler is already running")
        running = true
        while running, let next = takeNext(dueBy: virtualTime) {
            if converter.compareVirtualTime(next.time, clock) == .greaterThan { currentClock = next.time }
            next.disposable.setDisposable(next.action())
        }
        currentClock = virtualTime
        running = false
    }

    /// Moves the clock forward by `virtualInterval` without running anything.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        let sleepTo = converter.offsetVirtualTime(clock, offset: virtualInterval)
        precondition(converter.compareVirtualTime(sleepTo, clock) != .lessThan, "Can't sleep to past.")
        currentClock = sleepTo
    }

    /// Stops `start()` after the item it runs.
    public func stop() { running = false }

    private func isEarlier(_ item: Item, than other: Item) -> Bool {
        switch converter.compareVirtualTime(item.time, other.time) {
        case .lessThan: return true
        case .equal: return item.id < other.id
        case .greaterThan: return false
        }
    }

    private func takeNext(dueBy limit: VirtualTime? = nil) -> Item? {
        while let front = queue.first {
            if front.disposable.isDisposed {
                queue.removeFirst()
                continue
            }
            if let limit, converter.compareVirtualTime(front.time, limit) == .greaterThan { return nil }
            return queue.removeFirst()
        }
        return nil
    }
}

extension VirtualTimeScheduler: CustomDebugStringConvertible {
    /// The clock and when the work not yet run is due, for a test's failure message.
    public var debugDescription: String {
        let due = queue.filter { !$0.disposable.isDisposed }.map { "\($0.time)" }
        return "VirtualTimeScheduler(clock: \(clock), due: [\(due.joined(separator: ", "))])"
    }
}
