import Foundation

/// Work for the main thread that may start at once if the caller is already
/// there, as RxSwift's `ConcurrentMainScheduler` (made for `subscribe(on:)`):
/// from where `MainScheduler.instance` runs its work (a session's turn, or the
/// main thread) it runs inline, whatever is queued; from elsewhere it goes to
/// `MainScheduler.instance`. Read, like `MainScheduler.instance`, where the
/// operator that holds it is made.
public final class ConcurrentMainScheduler: SchedulerType, @unchecked Sendable {
    /// Foundation's `TimeInterval`, by the name RxSwift's schedulers give it.
    public typealias TimeInterval = Foundation.TimeInterval
    /// An absolute time (`RxTime`), by the name RxSwift's schedulers give it.
    public typealias Time = Date

    /// The main thread's: in a session's turn that session's, else the main queue's.
    public static var instance: ConcurrentMainScheduler { ConcurrentMainScheduler(main: MainScheduler.instance) }

    private let main: MainScheduler

    private init(main: MainScheduler) {
        self.main = main
    }

    /// The wall clock.
    public var now: RxTime { Date() }

    /// Runs `action` now if the caller is where the main scheduler runs, else there.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        main.isCurrent ? action(state) : main.schedule(state, action: action)
    }

    /// Runs `action` after `dueTime` on the main scheduler.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        main.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Runs `action` every `period` on the main scheduler.
    public func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType
    ) -> Disposable {
        main.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
