extension ObservableType {
    /// Delivers events through `scheduler`, one after another in order.
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        Observable { observer in
            // Work already scheduled when the subscription is disposed is dropped by
            // the subscription's sink, so there is nothing to keep per event.
            self.subscribe { event in
                _ = scheduler.schedule(event) { event in
                    observer.on(event)
                    return Disposables.create()
                }
            }
        }
    }

    /// Old name of `observe(on:)`.
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> { observe(on: scheduler) }
}
