import Foundation

extension ObservableType {
    /// On each element, emits `resultSelector(element, latest of second)`; elements
    /// before `second` has a value are dropped. Completes with the source.
    public func withLatestFrom<Source: ObservableConvertibleType, Result>(_ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> Result) -> Observable<Result> {
        Observable { observer in
            let lock = NSRecursiveLock()
            var latest: Source.Element?
            let secondSubscription = second.asObservable().subscribe { event in
                lock.withLock {
                    switch event {
                    case .next(let value): latest = value
                    case .error(let error): observer.on(.error(error))
                    case .completed: break
                    }
                }
            }
            let firstSubscription = self.subscribe { event in
                lock.withLock {
                    switch event {
                    case .next(let value):
                        guard let latest else { return }
                        do {
                            observer.on(.next(try resultSelector(value, latest)))
                        } catch {
                            observer.on(.error(error))
                        }
                    case .error(let error): observer.on(.error(error))
                    case .completed: observer.on(.completed)
                    }
                }
            }
            return Disposables.create(firstSubscription, secondSubscription)
        }
    }

    /// On each element, emits the latest element of `second`.
    public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Source.Element> {
        withLatestFrom(second) { $1 }
    }
}
