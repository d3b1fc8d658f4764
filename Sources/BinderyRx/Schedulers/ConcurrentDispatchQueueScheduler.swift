import Dispatch
import Foundation

/// Runs work on a concurrent dispatch queue: for services and background work.
public final class ConcurrentDispatchQueueScheduler: SchedulerType {
    /// Foundation's `TimeInterval`, by the name RxSwift's schedulers give it.
    public typealias TimeInterval = Foundation.TimeInterval
    /// An absolute time (`RxTime`), by the name RxSwift's schedulers give it.
    public typealias Time = Date

    let scheduling: DispatchQueueScheduling

    /// A scheduler on `queue`; its periodic timers may fire up to `leeway` late.
    public init(queue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        scheduling = DispatchQueueScheduling(queue: queue, leeway: leeway)
    }

    /// A scheduler on the global queue of quality of service `qos`.
    public convenience init(qos: DispatchQoS, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.init(queue: DispatchQueue.global(qos: qos.qosClass), leeway: leeway)
    }

    /// The wall clock.
    public var now: RxTime { Date() }

    /// Schedules `action` on the queue.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduling.schedule(state, action: action)
    }

    /// Schedules `action` on the queue after `dueTime`.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduling.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Schedules `action` every `period` on the queue.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        scheduling.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
