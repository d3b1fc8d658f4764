import Foundation

extension ObservableType {
    /// Drops the source's elements until `other` emits one; an error from `other`
    /// is forwarded. As in RxSwift, the source's completion is forwarded only once
    /// elements flow.
    public func skip<Source: ObservableType>(until other: Source) -> Observable<Element> {
        Observable { observer in
            let lock = NSRecursiveLock()
            var open = false
            let otherSubscription = SingleAssignmentDisposable()
            let sourceSubscription = SingleAssignmentDisposable()
            sourceSubscription.setDisposable(self.subscribe { event in
                lock.withLock {
                    switch event {
                    case .next: if open { observer.on(event) }
                    case .error: observer.on(event)
                    case .completed:
                        if open {
                            observer.on(event)
                        } else {
                            // Nothing can ever flow: both are let go now, as RxSwift's sink disposes itself.
                            otherSubscription.dispose()
                            sourceSubscription.dispose()
                        }
                    }
                }
            })
            otherSubscription.setDisposable(other.subscribe { event in
                lock.withLock {
                    switch event {
                    case .next:
                        open = true
                        otherSubscription.dispose()
                    case .error(let error): observer.on(.error(error))
                    case .completed: otherSubscription.dispose()
                    }
                }
            })
            return Disposables.create(sourceSubscription, otherSubscription)
        }
    }

    /// Old name of `skip(until:)`.
    @available(*, deprecated, renamed: "skip(until:)")
    public func skipUntil<Source: ObservableType>(_ other: Source) -> Observable<Element> {
        skip(until: other)
    }
}
