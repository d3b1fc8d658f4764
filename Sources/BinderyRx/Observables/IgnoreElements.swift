extension ObservableType {
    /// Drops every element and keeps only the terminal event, as RxSwift 6 does (`asCompletable()` makes it a `Completable`).
    public func ignoreElements() -> Observable<Never> {
        Observable { observer in
            self.subscribe { event in
                switch event {
                case .next: break
                case .error(let error): observer.on(.error(error))
                case .completed: observer.on(.completed)
                }
            }
        }
    }
}
