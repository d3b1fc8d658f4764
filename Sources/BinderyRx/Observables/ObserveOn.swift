import Foundation

extension ObservableType {
    /// Delivers events through `scheduler`, one after another in order. As in RxSwift,
    /// on a serial queue scheduler (`MainScheduler`, a session's `SerialScheduler`)
    /// each event is scheduled on its own, which runs inline when the caller is already
    /// there; on any other scheduler (concurrent, or a `TestScheduler`) events queue up
    /// and one drain delivers them, rescheduling itself after each event (so on a
    /// `TestScheduler` a burst arrives one tick apart).
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        if let serial = scheduler as? SerialScheduler {
            // A session's scheduler, under every Driver and Signal: as below, without
            // a disposable per event that nothing could dispose.
            return Observable { observer in
                self.subscribe { event in serial.deliver { observer.on(event) } }
            }
        }
        if scheduler is SerialDispatchQueueScheduler {
            return Observable { observer in
                // Work still scheduled after disposal is dropped by the subscription's sink.
                self.subscribe { event in
                    _ = scheduler.schedule(event) { event in
                        observer.on(event)
                        return Disposables.create()
                    }
                }
            }
        }
        return Observable { observer in
            let lock = NSLock()
            var queue: [Event<Element>] = []
            var draining = false
            // Scheduled drains are not tracked one by one: replacing one could cancel the
            // next before it runs; they check this flag instead.
            let cancel = BooleanDisposable()

            func deliverNext() -> Disposable {
                let next: Event<Element>? = lock.withLock {
                    guard !queue.isEmpty else {
                        draining = false
                        return nil
                    }
                    return queue.removeFirst()
                }
                guard let next, !cancel.isDisposed else { return Disposables.create() }
                observer.on(next)
                if !next.isStopEvent { _ = scheduler.schedule((), action: { _ in deliverNext() }) }
                return Disposables.create()
            }

            let subscription = self.subscribe { event in
                let start: Bool = lock.withLock {
                    queue.append(event)
                    defer { draining = true }
                    return !draining
                }
                if start { _ = scheduler.schedule((), action: { _ in deliverNext() }) }
            }
            return Disposables.create(subscription, cancel)
        }
    }

    /// Old name of `observe(on:)`.
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> { observe(on: scheduler) }
}
