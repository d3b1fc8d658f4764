import Foundation

extension ObservableType {
    /// Drops the elements of the first `duration`; errors and completion pass at any time.
    public func skip(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Observable { observer in
            let lock = NSRecursiveLock()
            var open = false
            let timer = scheduler.scheduleRelative((), dueTime: duration) { _ in
                lock.withLock { open = true }
                return Disposables.create()
            }
            let subscription = self.subscribe { event in
                lock.withLock {
                    if case .next = event, !open { return }
                    observer.on(event)
                }
            }
            return Disposables.create(timer, subscription)
        }
    }
}
