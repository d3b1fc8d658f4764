import Dispatch
import Foundation

/// A time interval, as in RxSwift.
public typealias RxTimeInterval = DispatchTimeInterval

/// An absolute time, as in RxSwift.
public typealias RxTime = Date

/// Runs units of work.
public protocol ImmediateSchedulerType {
    /// Schedules `action` to run with `state`; disposing cancels it if it has not run.
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable
}

/// Runs units of work now, later, or periodically.
public protocol SchedulerType: ImmediateSchedulerType {
    /// The scheduler's notion of the current time.
    var now: RxTime { get }

    /// Schedules `action` after `dueTime`.
    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable

    /// Schedules `action` every `period`, first after `startAfter`, threading state through.
    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable
}

extension SchedulerType {
    /// Periodic scheduling built from recursive relative scheduling.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        let serial = SerialDisposable()
        func tick(_ state: StateType, after: RxTimeInterval) {
            serial.disposable = scheduleRelative(state, dueTime: after) { state in
                guard !serial.isDisposed else { return Disposables.create() }
                tick(action(state), after: period)
                return Disposables.create()
            }
        }
        tick(state, after: startAfter)
        return serial
    }
}

extension DispatchTimeInterval {
    /// The interval in seconds.
    var seconds: Double {
        switch self {
        case .seconds(let s): return Double(s)
        case .milliseconds(let ms): return Double(ms) / 1_000
        case .microseconds(let us): return Double(us) / 1_000_000
        case .nanoseconds(let ns): return Double(ns) / 1_000_000_000
        case .never: return .infinity
        @unknown default: return .infinity
        }
    }
}
