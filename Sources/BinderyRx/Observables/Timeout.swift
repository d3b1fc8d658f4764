import Foundation

extension ObservableType {
    /// Fails with `RxError.timeout` if `dueTime` passes before the first element or between two elements.
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        timeout(dueTime, other: Observable<Element>.error(RxError.timeout), scheduler: scheduler)
    }

    /// Switches to `other` if `dueTime` passes before the first element or between two elements.
    public func timeout<Source: ObservableConvertibleType>(_ dueTime: RxTimeInterval, other: Source, scheduler: SchedulerType) -> Observable<Element> where Element == Source.Element {
        Observable { observer in
            let lock = NSRecursiveLock()
            let timer = SerialDisposable()
            let subscription = SerialDisposable()
            let original = SingleAssignmentDisposable()
            subscription.disposable = original
            var generation = 0
            var switched = false

            func startTimer() {
                timer.disposable = scheduler.scheduleRelative(generation, dueTime: dueTime) { due in
                    lock.withLock {
                        guard due == generation, !switched else { return }
                        switched = true
                        subscription.disposable = other.asObservable().subscribe(observer)
                    }
                    return Disposables.create()
                }
            }

            lock.withLock { startTimer() }
            original.setDisposable(self.subscribe { event in
                lock.withLock {
                    guard !switched else { return }
                    generation += 1
                    observer.on(event)
                    if case .next = event { startTimer() }
                }
            })
            return Disposables.create(subscription, timer)
        }
    }
}
