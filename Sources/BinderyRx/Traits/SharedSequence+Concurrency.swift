extension SharedSequence {
    /// The elements as an async sequence; ending the iteration disposes the subscription.
    /// RxCocoa reads it on the main actor; a session is no actor, so here it may be read anywhere.
    public var values: AsyncStream<Element> {
        AsyncStream<Element> { continuation in
            let subscription = asObservable().subscribe { event in
                switch event {
                case .next(let element): continuation.yield(element)
                case .error, .completed: continuation.finish()
                }
            }
            continuation.onTermination = { @Sendable termination in
                if case .cancelled = termination { subscription.dispose() }
            }
        }
    }
}
