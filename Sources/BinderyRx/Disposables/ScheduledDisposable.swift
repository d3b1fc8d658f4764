import Synchronization

/// Disposes its disposable on `scheduler`, once, as RxSwift's.
public final class ScheduledDisposable: Cancelable, @unchecked Sendable {
    /// Where the disposal runs.
    public let scheduler: ImmediateSchedulerType
    private let disposed = Atomic<Bool>(false)
    private let disposable: Disposable

    /// Will dispose `disposable` on `scheduler`.
    public init(scheduler: ImmediateSchedulerType, disposable: Disposable) {
        self.scheduler = scheduler
        self.disposable = disposable
    }

    /// Whether the disposable was disposed.
    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Schedules the disposal.
    public func dispose() {
        _ = scheduler.schedule(self) { scheduled in
            if !scheduled.disposed.exchange(true, ordering: .acquiringAndReleasing) { scheduled.disposable.dispose() }
            return Disposables.create()
        }
    }
}
