import Foundation

/// The shared engine of every `zip`: elements queue up per source, and as soon
/// as every source has one, the oldest of each are combined and emitted. Errors
/// end it at once. It completes when every source has completed; the collection
/// forms also complete when an element arrives that can never be paired because
/// every other source has completed, since RxSwift's `ZipCollectionType` does and
/// its fixed-arity `ZipSink` does not. A lock serializes sources on different threads.
func zipEngine<Result>(_ sources: [Observable<Any>], completesWhenUnpairable: Bool = false, _ combine: @escaping ([Any]) throws -> Result) -> Observable<Result> {
    Observable { observer in
        if sources.isEmpty {
            observer.on(.completed)
            return Disposables.create()
        }
        let lock = NSRecursiveLock()
        var queues = [[Any]](repeating: [], count: sources.count)
        var isDone = [Bool](repeating: false, count: sources.count)
        var numberOfDone = 0
        let subscriptions = sources.map { _ in SingleAssignmentDisposable() }
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(source.subscribe { event in
                lock.withLock {
                    switch event {
                    case .next(let value):
                        queues[index].append(value)
                        guard queues.allSatisfy({ !$0.isEmpty }) else {
                            if completesWhenUnpairable, numberOfDone == sources.count - 1, !isDone[index] { observer.on(.completed) }
                            return
                        }
                        let arguments = queues.indices.map { queues[$0].removeFirst() }
                        do {
                            observer.on(.next(try combine(arguments)))
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
    /// Pairs up the elements of every source in the collection, by index, with `resultSelector`.
    public static func zip<Collection: Swift.Collection>(_ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) throws -> Element) -> Observable<Element> where Collection.Element: ObservableType {
        zipEngine(collection.map { $0.asObservable().map { $0 as Any } }, completesWhenUnpairable: true) { values in
            try resultSelector(values.map { $0 as! Collection.Element.Element })
        }
    }

    /// Pairs up the elements of every source in the collection, by index, into arrays.
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> Observable<[Element]> where Collection.Element: ObservableType, Collection.Element.Element == Element {
        zipEngine(collection.map { $0.asObservable().map { $0 as Any } }, completesWhenUnpairable: true) { values in
            values.map { $0 as! Element }
        }
    }
}
