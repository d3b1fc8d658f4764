import Dispatch
import Foundation

/// A serial scheduler that, like `MainScheduler` on the main thread, runs work
/// inline when called from its own queue, through a trampoline: work scheduled
/// while other work runs is queued and drained before the outermost call
/// returns. So everything an event causes synchronously has happened when
/// `run` returns, in order and without reentrancy. Bindery gives each session one.
///
/// Thread safety: call from any thread; work from other threads is dispatched
/// asynchronously onto the queue.
public final class SerialScheduler: SchedulerType, @unchecked Sendable {
    private final class Reference { weak var scheduler: SerialScheduler? }
    private static let key = DispatchSpecificKey<Reference>()

    /// The queue all work runs on.
    public let queue: DispatchQueue
    private let scheduling: DispatchQueueScheduling
    // Touched only on `queue`.
    private var pending: [() -> Void] = []
    private var isDraining = false

    /// A scheduler on a new serial queue with this label.
    public init(label: String) {
        queue = DispatchQueue(label: label)
        scheduling = DispatchQueueScheduling(queue: queue)
        let reference = Reference()
        reference.scheduler = self
        queue.setSpecific(key: Self.key, value: reference)
    }

    /// The scheduler whose queue the caller runs on, if any.
    public static var current: SerialScheduler? { DispatchQueue.getSpecific(key: key)?.scheduler }

    /// Whether the caller runs on this scheduler's queue.
    public var isCurrent: Bool { Self.current === self }

    /// The wall clock.
    public var now: RxTime { Date() }

    /// Runs `work` on the queue and waits for it and everything it scheduled inline.
    public func sync<T>(_ work: () throws -> T) rethrows -> T {
        if isCurrent { return try trampoline(work) }
        return try queue.sync { try trampoline(work) }
    }

    /// Runs `work` on the queue later.
    public func async(_ work: @escaping () -> Void) {
        queue.async { self.trampoline(work) }
    }

    private func trampoline<T>(_ work: () throws -> T) rethrows -> T {
        if isDraining { return try work() }
        isDraining = true
        defer { isDraining = false }
        let result = try work()
        // Walk by index: work may append while it runs, and removing from the
        // front of an array is linear, which made a burst quadratic.
        var index = 0
        while index < pending.count {
            let next = pending[index]
            index += 1
            next()
        }
        pending.removeAll(keepingCapacity: true)
        return result
    }

    /// Runs `action` inline when on the queue (after the work in progress), else on the queue.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        guard isCurrent else {
            return scheduling.schedule(state) { state in self.trampoline { action(state) } }
        }
        if !isDraining { return trampoline { action(state) } }
        let cancel = SingleAssignmentDisposable()
        pending.append {
            guard !cancel.isDisposed else { return }
            cancel.setDisposable(action(state))
        }
        return cancel
    }

    /// Schedules `action` on the queue after `dueTime`.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduling.scheduleRelative(state, dueTime: dueTime) { state in self.trampoline { action(state) } }
    }

    /// Schedules `action` every `period` on the queue.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        scheduling.schedulePeriodic(state, startAfter: startAfter, period: period) { state in self.trampoline { action(state) } }
    }
}
