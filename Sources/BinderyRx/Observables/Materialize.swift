extension ObservableType {
    /// Emits every event of the source as an element, then completes; the result never fails.
    public func materialize() -> Observable<Event<Element>> {
        Observable { observer in
            self.subscribe { event in
                observer.on(.next(event))
                if event.isStopEvent { observer.on(.completed) }
            }
        }
    }
}
