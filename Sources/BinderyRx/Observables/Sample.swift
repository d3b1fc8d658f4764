import Foundation

extension ObservableType {
    /// On each element (or completion) of `sampler`, emits the latest source element
    /// if there is a new one since the last sample, else `defaultValue` if given.
    /// As in RxSwift, it completes on the first sample after the source completed.
    public func sample<Source: ObservableType>(_ sampler: Source, defaultValue: Element? = nil) -> Observable<Element> {
        Observable { observer in
            let lock = NSRecursiveLock()
            var latest: Element?
            var sourceDone = false
            let sourceSubscription = SingleAssignmentDisposable()
            sourceSubscription.setDisposable(self.subscribe { event in
                lock.withLock {
                    switch event {
                    case .next(let element): latest = element
                    case .error: observer.on(event)
                    case .completed:
                        sourceDone = true
                        sourceSubscription.dispose()
                    }
                }
            })
            let samplerSubscription = sampler.subscribe { event in
                lock.withLock {
                    switch event {
                    case .next, .completed:
                        if let element = latest ?? defaultValue {
                            latest = nil
                            observer.on(.next(element))
                        }
                        if sourceDone { observer.on(.completed) }
                    case .error(let error):
                        observer.on(.error(error))
                    }
                }
            }
            return Disposables.create(sourceSubscription, samplerSubscription)
        }
    }
}
