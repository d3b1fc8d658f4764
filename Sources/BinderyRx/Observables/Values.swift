import Foundation

extension ObservableConvertibleType {
    /// The elements as an async sequence, which throws the sequence's error; cancelling the
    /// iterating task disposes the subscription, and a subscription disposed before the
    /// sequence ended throws `CancellationError`.
    public var values: AsyncThrowingStream<Element, Error> {
        AsyncThrowingStream<Element, Error> { continuation in
            let lock = NSLock()
            var finished = false
            func finish(_ error: Error?) {
                let first = lock.withLock { () -> Bool in
                    defer { finished = true }
                    return !finished
                }
                if first { continuation.finish(throwing: error) }
            }
            let subscription = asObservable().subscribe(
                onNext: { continuation.yield($0) },
                onError: { finish($0) },
                onCompleted: { finish(nil) },
                onDisposed: { finish(CancellationError()) }
            )
            continuation.onTermination = { @Sendable termination in
                if case .cancelled = termination { subscription.dispose() }
            }
        }
    }
}
