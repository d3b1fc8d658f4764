extension ObservableType {
    /// Runs side effects for each event, around subscription and on disposal; a thrown error becomes `.error`.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Observable<Element> {
        Observable { observer in
            onSubscribe?()
            let subscription = self.subscribe { event in
                do {
                    switch event {
                    case .next(let value):
                        try onNext?(value)
                        observer.on(event)
                        try afterNext?(value)
                    case .error(let error):
                        try onError?(error)
                        observer.on(event)
                        try afterError?(error)
                    case .completed:
                        try onCompleted?()
                        observer.on(event)
                        try afterCompleted?()
                    }
                } catch {
                    observer.on(.error(error))
                }
            }
            onSubscribed?()
            return Disposables.create {
                subscription.dispose()
                onDispose?()
            }
        }
    }
}
