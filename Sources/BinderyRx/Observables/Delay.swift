import Foundation

extension ObservableType {
    /// Shifts elements and completion by `dueTime`; an error is delivered at once, dropping what is still delayed.
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Observable { observer in
            // As RxSwift's DelaySink: events wait in one queue, each delivered by a scheduled
            // action of its own, which schedules the next for what remains of its delay (events
            // due at the same time are so one action apart, a tick apart on a virtual clock).
            // Nothing is delivered under the lock: an observer may wait for the source's next
            // move, so an error arriving meanwhile is left for the drain to deliver after it.
            let lock = NSLock()
            let drain = SerialDisposable()
            let subscription = SingleAssignmentDisposable()
            var queue: [(time: RxTime, event: Event<Element>)] = []
            var scheduled = false
            var delivering = false
            var failure: Event<Element>?

            func scheduleDrain(after interval: RxTimeInterval) {
                drain.disposable = scheduler.scheduleRelative((), dueTime: interval) { _ in
                    runDrain()
                    return Disposables.create()
                }
            }

            func runDrain() {
                let failed = lock.withLock { () -> Bool in
                    if failure == nil { delivering = true }
                    return failure != nil
                }
                if failed { return }
                var delivered = false
                while true {
                    let (error, now, nextTime) = lock.withLock { () -> (Event<Element>?, Event<Element>?, RxTime?) in
                        let now = delivered || queue.isEmpty ? nil : queue.removeFirst().event
                        let nextTime = delivered ? queue.first?.time : nil
                        if failure == nil, now == nil {
                            delivering = false
                            if nextTime == nil { scheduled = false }
                        }
                        return (failure, now, nextTime)
                    }
                    if let error {
                        observer.on(error)
                        return
                    }
                    if let now {
                        delivered = true
                        observer.on(now)
                        if now.isStopEvent { return }
                    } else if let nextTime {
                        let waited = scheduler.now.timeIntervalSince(nextTime)
                        scheduleDrain(after: .nanoseconds(max(0, Int((dueTime.seconds - waited) * 1_000_000_000))))
                        return
                    } else {
                        return
                    }
                }
            }

            subscription.setDisposable(self.subscribe { event in
                // As in RxSwift, the source is released as soon as it ends, not when its end is delivered.
                if event.isStopEvent { subscription.dispose() }
                if case .error = event {
                    let now = lock.withLock { () -> Bool in
                        queue = []
                        failure = event
                        return !delivering
                    }
                    if now {
                        drain.dispose()
                        observer.on(event)
                    }
                    return
                }
                let start = lock.withLock { () -> Bool in
                    queue.append((scheduler.now, event))
                    defer { scheduled = true }
                    return !scheduled
                }
                if start { scheduleDrain(after: dueTime) }
            })
            return Disposables.create(subscription, drain)
        }
    }
}
