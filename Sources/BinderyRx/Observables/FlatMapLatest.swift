import Foundation

extension ObservableType {
    /// Maps each element to an inner sequence and mirrors only the latest one,
    /// disposing the previous inner subscription. Completes when the source and
    /// the current inner have completed.
    public func flatMapLatest<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        Observable { observer in
            let lock = NSRecursiveLock()
            let inner = SerialDisposable()
            var generation = 0
            var innerActive = false
            var outerStopped = false
            let outer = SingleAssignmentDisposable()
            outer.setDisposable(self.subscribe { event in
                switch event {
                case .next(let value):
                    let next = lock.withLock { () -> (Int, Observable<Source.Element>)? in
                        let inners: Observable<Source.Element>
                        do {
                            inners = try selector(value).asObservable()
                        } catch {
                            observer.on(.error(error))
                            return nil
                        }
                        generation += 1
                        innerActive = true
                        return (generation, inners)
                    }
                    guard let (mine, inners) = next else { return }
                    // Replacing (so disposing) the previous inner and subscribing to the new one
                    // happen under no lock, as in RxSwift's SwitchSink: either may take a lock
                    // that another thread holds while it waits to send through here.
                    let single = SingleAssignmentDisposable()
                    inner.disposable = single
                    single.setDisposable(inners.subscribe { event in
                        lock.withLock {
                            guard mine == generation else { return }
                            switch event {
                            case .next, .error: observer.on(event)
                            case .completed:
                                innerActive = false
                                if outerStopped { observer.on(.completed) }
                            }
                        }
                    })
                case .error(let error):
                    lock.withLock { observer.on(.error(error)) }
                case .completed:
                    let finished = lock.withLock { () -> Bool in
                        outerStopped = true
                        if !innerActive { observer.on(.completed) }
                        return innerActive
                    }
                    // As RxSwift's SwitchSink: a finished outer is let go at once, not with the inner.
                    if finished { outer.dispose() }
                }
            })
            return Disposables.create(outer, inner)
        }
    }
}
