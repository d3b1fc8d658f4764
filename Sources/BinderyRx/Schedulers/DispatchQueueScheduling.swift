import Dispatch
import Foundation

/// Schedules work on a dispatch queue; the common part of the queue-based schedulers.
struct DispatchQueueScheduling {
    let queue: DispatchQueue

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
        timer.schedule(deadline: .now() + startAfter, repeating: period)
        timer.setEventHandler { current = action(current) }
        timer.resume()
        return Disposables.create { timer.cancel() }
    }
}
