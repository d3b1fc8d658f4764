import Foundation

extension ObservableType {
    /// Resubscribes to the source after every error, for ever.
    public func retry() -> Observable<Element> {
        retry(attempts: nil)
    }

    /// Subscribes to the source up to `maxAttemptCount` times in all, forwarding the last error.
    public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
        retry(attempts: maxAttemptCount)
    }

    private func retry(attempts maxAttempts: Int?) -> Observable<Element> {
        Observable { observer in
            let lock = NSRecursiveLock()
            let current = SerialDisposable()
            var attempts = 0
            var subscribing = false
            var retryPending = false

            // A source that fails while being subscribed is retried by the loop, not by recursion, so the stack stays flat.
            func subscribeLoop() {
                repeat {
                    retryPending = false
                    attempts += 1
                    subscribing = true
                    let subscription = SingleAssignmentDisposable()
                    current.disposable = subscription
                    subscription.setDisposable(self.subscribe { event in
                        lock.withLock {
                            guard case .error = event, maxAttempts.map({ attempts < $0 }) ?? true else { return observer.on(event) }
                            if subscribing { retryPending = true } else { subscribeLoop() }
                        }
                    })
                    subscribing = false
                } while retryPending && !current.isDisposed
            }

            lock.withLock { subscribeLoop() }
            return current
        }
    }
}
