import Foundation

extension ObservableType {
    /// Emits the elements of the first `duration`, then completes.
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Observable { observer in
            // The source's events and the timer's completion may come on different threads.
            let lock = NSRecursiveLock()
            let timer = scheduler.scheduleRelative((), dueTime: duration) { _ in
                lock.withLock { observer.on(.completed) }
                return Disposables.create()
            }
            let subscription = self.subscribe { event in lock.withLock { observer.on(event) } }
            return Disposables.create(timer, subscription)
        }
    }
}
