import Foundation

extension ObservableType {
    /// Emits an element only after `dueTime` passes without another; on completion the pending element is emitted first.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Observable { observer in
            let lock = NSRecursiveLock()
            let timer = SerialDisposable()
            var pending: Element?
            var generation = 0
            let subscription = self.subscribe { event in
                lock.withLock {
                    switch event {
                    case .next(let element):
                        generation += 1
                        pending = element
                        timer.disposable = scheduler.scheduleRelative(generation, dueTime: dueTime) { due in
                            lock.withLock {
                                guard due == generation, let element = pending else { return }
                                pending = nil
                                observer.on(.next(element))
                            }
                            return Disposables.create()
                        }
                    case .error:
                        pending = nil
                        observer.on(event)
                    case .completed:
                        if let element = pending {
                            pending = nil
                            observer.on(.next(element))
                        }
                        observer.on(.completed)
                    }
                }
            }
            return Disposables.create(subscription, timer)
        }
    }
}
