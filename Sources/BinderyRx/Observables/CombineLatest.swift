import Foundation

/// The shared engine of every `combineLatest`: once each source has an element,
/// every new element emits the combination of the latest ones. Errors end it at
/// once. It completes when every source has completed, or, as in RxSwift, when
/// an element arrives while some other source has completed without ever
/// emitting (no combination can ever be made). A lock serializes sources that
/// deliver on different threads.
func combineLatestEngine<Result>(_ sources: [Observable<Any>], _ combine: @escaping ([Any]) throws -> Result) -> Observable<Result> {
    Observable { observer in
        if sources.isEmpty {
            observer.on(.completed)
            return Disposables.create()
        }
        let lock = NSRecursiveLock()
        var latest = [Any?](repeating: nil, count: sources.count)
        var isDone = [Bool](repeating: false, count: sources.count)
        var numberOfValues = 0
        var numberOfDone = 0
        let subscriptions = sources.map { _ in SingleAssignmentDisposable() }
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(source.subscribe { event in
                lock.withLock {
                    switch event {
                    case .next(let value):
                        if latest[index] == nil { numberOfValues += 1 }
                        latest[index] = value
                        guard numberOfValues == sources.count else {
                            let othersDone = numberOfDone - (isDone[index] ? 1 : 0)
                            if othersDone == sources.count - 1 { observer.on(.completed) }
                            return
                        }
                        do {
                            observer.on(.next(try combine(latest.map { $0! })))
                        } catch {
                            observer.on(.error(error))
                        }
                    case .error(let error):
                        observer.on(.error(error))
                    case .completed:
                        guard !isDone[index] else { return }
                        isDone[index] = true
                        numberOfDone += 1
                        if numberOfDone == sources.count { observer.on(.completed) }
                    }
                }
            })
        }
        return Disposables.create(subscriptions)
    }
}

extension ObservableType {
    /// Combines the latest elements of every source in the collection with `resultSelector`.
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) throws -> Element) -> Observable<Element> where Collection.Element: ObservableType {
        combineLatestEngine(collection.map { $0.asObservable().map { $0 as Any } }) { values in
            try resultSelector(values.map { $0 as! Collection.Element.Element })
        }
    }

    /// Combines the latest elements of every source in the collection into an array.
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection) -> Observable<[Element]> where Collection.Element: ObservableType, Collection.Element.Element == Element {
        combineLatestEngine(collection.map { $0.asObservable().map { $0 as Any } }) { values in
            values.map { $0 as! Element }
        }
    }
}
