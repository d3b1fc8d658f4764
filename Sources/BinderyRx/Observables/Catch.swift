extension ObservableType {
    /// On error, continues with the sequence `handler` returns.
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        Observable { observer in
            // The source's subscription is set before it can fail, so the handler's never gets replaced.
            let subscription = SerialDisposable()
            let source = SingleAssignmentDisposable()
            subscription.disposable = source
            source.setDisposable(self.subscribe { event in
                guard case .error(let error) = event else { return observer.on(event) }
                do {
                    subscription.disposable = try handler(error).subscribe(observer)
                } catch {
                    observer.on(.error(error))
                }
            })
            return subscription
        }
    }

    /// On error, emits `element` and completes.
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        `catch` { _ in .just(element) }
    }

    /// Old name of `catch(_:)`.
    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        `catch`(handler)
    }

    /// Old name of `catchAndReturn(_:)`.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Observable<Element> { catchAndReturn(element) }
}
