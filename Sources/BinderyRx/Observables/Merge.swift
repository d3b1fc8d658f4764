import Foundation

extension ObservableType {
    /// Emits the elements of every source as they come; completes when all complete.
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Observable<Element> where Collection.Element == Observable<Element> {
        Observable { observer in
            let lock = NSRecursiveLock()
            var active = sources.count
            if active == 0 {
                observer.on(.completed)
                return Disposables.create()
            }
            let subscriptions = CompositeDisposable()
            for source in sources {
                subscriptions.insert(source.subscribe { event in
                    lock.withLock {
                        switch event {
                        case .next, .error: observer.on(event)
                        case .completed:
                            active -= 1
                            if active == 0 { observer.on(.completed) }
                        }
                    }
                })
            }
            return subscriptions
        }
    }

    /// Emits the elements of every source as they come; completes when all complete.
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        merge(sources)
    }

    /// Emits the elements of every source as they come; completes when all complete.
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        merge(sources[...])
    }
}
