import Foundation

/// Whether `take(while:)` and `take(until:)` also emit the element that ends them.
public enum TakeBehavior {
    /// Emit the element that ends the sequence.
    case inclusive
    /// Drop the element that ends the sequence.
    case exclusive
}

extension ObservableType {
    /// Emits the source's elements until `other` emits an element, then completes;
    /// an error from `other` is forwarded, its completion changes nothing.
    public func take<Source: ObservableType>(until other: Source) -> Observable<Element> {
        Observable { observer in
            let lock = NSRecursiveLock()
            let otherSubscription = SingleAssignmentDisposable()
            otherSubscription.setDisposable(other.subscribe { event in
                lock.withLock {
                    switch event {
                    case .next: observer.on(.completed)
                    case .error(let error): observer.on(.error(error))
                    case .completed: otherSubscription.dispose()
                    }
                }
            })
            let sourceSubscription = self.subscribe { event in lock.withLock { observer.on(event) } }
            return Disposables.create(otherSubscription, sourceSubscription)
        }
    }

    /// Emits elements until one satisfies `predicate`, then completes.
    public func take(until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        take(while: { try !predicate($0) }, behavior: behavior)
    }

    /// Old name of `take(until:)`.
    @available(*, deprecated, renamed: "take(until:)")
    public func takeUntil<Source: ObservableType>(_ other: Source) -> Observable<Element> {
        take(until: other)
    }
}
