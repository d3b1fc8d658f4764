extension ObservableType {
    /// RxSwift 5's name of `subscribe(on:)`, which RxSwift 6 still ships deprecated.
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> { subscribe(on: scheduler) }

    /// Subscribes to (and disposes) the source through `scheduler`.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        Observable { observer in
            let subscription = SerialDisposable()
            let scheduled = SingleAssignmentDisposable()
            subscription.disposable = scheduled
            scheduled.setDisposable(scheduler.schedule(()) { _ in
                let inner = self.subscribe(observer)
                subscription.disposable = Disposables.create {
                    _ = scheduler.schedule(()) { _ in
                        inner.dispose()
                        return Disposables.create()
                    }
                }
                return Disposables.create()
            })
            return subscription
        }
    }
}
