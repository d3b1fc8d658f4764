extension ObservableType {
    /// Mirrors the first source; when one fails, goes on with the next. It ends with the
    /// first completion, or with the last error once every source has failed.
    public static func `catch`<Sequence: Swift.Sequence>(sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        Observable { observer in
            var sources = sequence.makeIterator()
            var lastError: Swift.Error?
            let current = SerialDisposable()
            // Called only from the callback of the source that just failed: sources run one at a time.
            func subscribeNext() {
                guard let source = sources.next() else {
                    observer.on(lastError.map { .error($0) } ?? .completed)
                    return
                }
                let subscription = SingleAssignmentDisposable()
                current.disposable = subscription
                subscription.setDisposable(source.subscribe { event in
                    switch event {
                    case .next, .completed: observer.on(event)
                    case .error(let error):
                        lastError = error
                        subscribeNext()
                    }
                })
            }
            subscribeNext()
            return current
        }
    }
}
