extension ObservableType {
    /// Subscribes to the source only after `dueTime`.
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Observable { observer in
            let subscription = SerialDisposable()
            subscription.disposable = scheduler.scheduleRelative((), dueTime: dueTime) { _ in
                self.subscribe(observer)
            }
            return subscription
        }
    }
}
