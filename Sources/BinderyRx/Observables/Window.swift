import Foundation

extension ObservableType {
    /// Splits the elements into windows, each an `Observable` emitted when the previous one
    /// ends: a window completes once it held `count` elements or `timeSpan` after it began.
    /// The source stays subscribed while a window is, even after the outer subscription is
    /// disposed, as in RxSwift.
    public func window(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<Observable<Element>> {
        Observable { observer in
            let lock = NSRecursiveLock()
            let group = CompositeDisposable()
            let timer = SerialDisposable()
            _ = group.insert(timer)
            let refCount = RefCountDisposable(disposable: group)
            var subject = PublishSubject<Element>()
            var elementCount = 0
            var windowId = 0

            func emitWindow() {
                let current = subject
                observer.on(.next(Observable { windowObserver in
                    Disposables.create(refCount.retain(), current.subscribe(windowObserver))
                }))
            }
            func completeAndStartNew() {
                elementCount = 0
                windowId &+= 1
                subject.on(.completed)
                subject = PublishSubject()
                emitWindow()
            }
            func startTimer(for id: Int) {
                guard !timer.isDisposed, id == windowId else { return }
                let next = SingleAssignmentDisposable()
                timer.disposable = next
                next.setDisposable(scheduler.scheduleRelative(id, dueTime: timeSpan) { id in
                    let started = lock.withLock { () -> Int? in
                        guard id == windowId else { return nil }
                        completeAndStartNew()
                        return windowId
                    }
                    if let started { startTimer(for: started) }
                    return Disposables.create()
                })
            }

            lock.withLock {
                emitWindow()
                startTimer(for: windowId)
            }
            _ = group.insert(self.subscribe { event in
                let started = lock.withLock { () -> Int? in
                    switch event {
                    case .next(let element):
                        subject.on(.next(element))
                        elementCount += 1
                        guard elementCount == count else { return nil }
                        completeAndStartNew()
                        return windowId
                    case .error(let error):
                        subject.on(.error(error))
                        observer.on(.error(error))
                    case .completed:
                        subject.on(.completed)
                        observer.on(.completed)
                    }
                    return nil
                }
                if let started { startTimer(for: started) }
            })
            return refCount
        }
    }
}
