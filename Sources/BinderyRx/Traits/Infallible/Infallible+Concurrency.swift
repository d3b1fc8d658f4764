extension InfallibleType {
    /// The elements as an async sequence; ending the iteration disposes the subscription.
    public var values: AsyncStream<Element> {
        AsyncStream<Element> { continuation in
            let subscription = asInfallible().subscribe(onNext: { continuation.yield($0) }, onCompleted: { continuation.finish() })
            continuation.onTermination = { @Sendable termination in
                if case .cancelled = termination { subscription.dispose() }
            }
        }
    }
}
