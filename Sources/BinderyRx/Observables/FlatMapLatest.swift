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
            let outer = self.subscribe { event in
                lock.withLock {
                    switch event {
                    case .next(let value):
                        let inners: Observable<Source.Element>
                        do {
                            inners = try selector(value).asObservable()
                        } catch {
                            observer.on(.error(error))
                            return
                        }
                        generation += 1
                        let mine = generation
                        innerActive = true
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
                        observer.on(.error(error))
                    case .completed:
                        outerStopped = true
                        if !innerActive { observer.on(.completed) }
                    }
                }
            }
            return Disposables.create(outer, inner)
        }
    }
}
