import Dispatch
import Foundation

/// Schedules work on a dispatch queue; the common part of the queue-based schedulers.
struct DispatchQueueScheduling {
    let queue: DispatchQueue
    /// How late a periodic timer may fire, to let the system coalesce wake-ups.
    var leeway: DispatchTimeInterval = .nanoseconds(0)

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        queue.async {
            guard !cancel.isDisposed else { return }
            cancel.setDisposable(action(state))
        }
        return cancel
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        queue.asyncAfter(deadline: .now() + dueTime) {
            guard !cancel.isDisposed else { return }
            cancel.setDisposable(action(state))
        }
        return cancel
    }

    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        var current = state
        timer.schedule(deadline: .now() + startAfter, repeating: period, leeway: leeway)
        timer.setEventHandler { current = action(current) }
        timer.resume()
        return Disposables.create { timer.cancel() }
    }
}
