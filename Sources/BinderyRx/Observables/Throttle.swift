import Foundation

extension ObservableType {
    /// Emits an element, then at most one per `dueTime`: with `latest`, the last
    /// element of each window is emitted when it closes (and completion waits for it).
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Observable<Element> {
        Observable { observer in
            let lock = NSRecursiveLock()
            let timer = SerialDisposable()
            var lastSent: RxTime?
            var unsent: Element?
            var completionPending = false

            func send(_ element: Element) {
                unsent = nil
                observer.on(.next(element))
                lastSent = scheduler.now
            }

            let subscription = SingleAssignmentDisposable()
            subscription.setDisposable(self.subscribe { event in
                lock.withLock {
                    switch event {
                    case .next(let element):
                        let now = scheduler.now
                        let elapsed = lastSent.map { now.timeIntervalSince($0) } ?? dueTime.seconds
                        if elapsed >= dueTime.seconds { return send(element) }
                        guard latest else { return }
                        let windowOpen = unsent != nil
                        unsent = element
                        if windowOpen { return }
                        let remaining = RxTimeInterval.nanoseconds(Int((dueTime.seconds - elapsed) * 1_000_000_000))
                        timer.disposable = scheduler.scheduleRelative((), dueTime: remaining) { _ in
                            lock.withLock {
                                if let element = unsent { send(element) }
                                if completionPending { observer.on(.completed) }
                            }
                            return Disposables.create()
                        }
                    case .error:
                        unsent = nil
                        observer.on(event)
                    case .completed:
                        if unsent != nil {
                            completionPending = true
                            // The ended source is let go now, as RxSwift's (its sink disposes it), not when the window closes.
                            subscription.dispose()
                        } else {
                            observer.on(.completed)
                        }
                    }
                }
            })
            return Disposables.create(subscription, timer)
        }
    }
}
