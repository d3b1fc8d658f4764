import Foundation

extension ObservableType {
    /// Shifts elements and completion by `dueTime`; an error is delivered at once, dropping what is still delayed.
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Observable { observer in
            let lock = NSRecursiveLock()
            let scheduled = CompositeDisposable()
            let subscription = SingleAssignmentDisposable()
            subscription.setDisposable(self.subscribe { event in
                lock.withLock {
                    // As in RxSwift, the source is released as soon as it ends, not when its end is delivered.
                    if event.isStopEvent { subscription.dispose() }
                    if case .error = event {
                        scheduled.dispose()
                        return observer.on(event)
                    }
                    let item = SingleAssignmentDisposable()
                    guard let key = scheduled.insert(item) else { return }
                    item.setDisposable(scheduler.scheduleRelative(event, dueTime: dueTime) { event in
                        lock.withLock {
                            scheduled.remove(for: key)
                            observer.on(event)
                        }
                        return Disposables.create()
                    })
                }
            })
            return Disposables.create(subscription, scheduled)
        }
    }
}
