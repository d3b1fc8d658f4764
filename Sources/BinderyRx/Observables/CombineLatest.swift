import Foundation

/// The rule every `combineLatest` follows, apart from its values: once each
/// source has an element, every new element emits the combination of the
/// latest ones. Errors end it at once (the caller forwards them). It completes
/// when every source has completed, or, as in RxSwift, when an element arrives
/// while some other source has completed without ever emitting (no combination
/// can ever be made). Guarded by its operator's lock.
struct CombineLatestGate {
    /// What the operator does after an event of one source.
    enum Step { case emit, wait, complete }

    private var hasValue: [Bool]
    private var isDone: [Bool]
    private var numberOfValues = 0
    private var numberOfDone = 0

    init(arity: Int) {
        hasValue = Array(repeating: false, count: arity)
        isDone = Array(repeating: false, count: arity)
    }

    /// Source `index` emitted (its value is stored by the caller).
    mutating func next(_ index: Int) -> Step {
        if !hasValue[index] {
            hasValue[index] = true
            numberOfValues += 1
        }
        if numberOfValues == hasValue.count { return .emit }
        let othersDone = numberOfDone - (isDone[index] ? 1 : 0)
        return othersDone == hasValue.count - 1 ? .complete : .wait
    }

    /// Source `index` completed.
    mutating func completed(_ index: Int) -> Step {
        guard !isDone[index] else { return .wait }
        isDone[index] = true
        numberOfDone += 1
        return numberOfDone == isDone.count ? .complete : .wait
    }
}

/// The engine of `combineLatest` over any number of sources, their elements
/// boxed; a lock serializes sources that deliver on different threads.
func combineLatestEngine<Result>(_ sources: [Observable<Any>], _ combine: @escaping ([Any]) throws -> Result) -> Observable<Result> {
    Observable { observer in
        if sources.isEmpty {
            // The combination of no elements exists at once, as in RxSwift's CombineLatestCollectionType.
            do {
                observer.on(.next(try combine([])))
                observer.on(.completed)
            } catch {
                observer.on(.error(error))
            }
            return Disposables.create()
        }
        let lock = NSRecursiveLock()
        var latest = [Any?](repeating: nil, count: sources.count)
        var gate = CombineLatestGate(arity: sources.count)
        func react(_ step: CombineLatestGate.Step) {
            switch step {
            case .emit:
                do { observer.on(.next(try combine(latest.map { $0! }))) } catch { observer.on(.error(error)) }
            case .complete: observer.on(.completed)
            case .wait: break
            }
        }
        let subscriptions = sources.map { _ in SingleAssignmentDisposable() }
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(source.subscribe { event in
                lock.withLock {
                    switch event {
                    case .next(let value):
                        latest[index] = value
                        react(gate.next(index))
                    case .error(let error): observer.on(.error(error))
                    case .completed: react(gate.completed(index))
                    }
                }
            })
        }
        return Disposables.create(subscriptions)
    }
}

/// `combineLatest` of two sources with their elements as they are: no box, no
/// cast, no array per element, the commonest arity in a ViewModel's bind.
func combineLatest2<First, Second, Result>(_ first: Observable<First>, _ second: Observable<Second>, _ combine: @escaping (First, Second) throws -> Result) -> Observable<Result> {
    Observable { observer in
        let lock = NSRecursiveLock()
        var latest: (First?, Second?) = (nil, nil)
        var gate = CombineLatestGate(arity: 2)
        func react(_ step: CombineLatestGate.Step) {
            switch step {
            case .emit:
                do { observer.on(.next(try combine(latest.0!, latest.1!))) } catch { observer.on(.error(error)) }
            case .complete: observer.on(.completed)
            case .wait: break
            }
        }
        /// Subscribes to source `index`, keeping its elements with `store`.
        func follow<Element>(_ source: Observable<Element>, _ index: Int, store: @escaping (Element) -> Void) -> Disposable {
            let subscription = SingleAssignmentDisposable()
            subscription.setDisposable(source.subscribe { event in
                lock.withLock {
                    switch event {
                    case .next(let value):
                        store(value)
                        react(gate.next(index))
                    case .error(let error): observer.on(.error(error))
                    case .completed: react(gate.completed(index))
                    }
                }
            })
            return subscription
        }
        return Disposables.create(follow(first, 0) { latest.0 = $0 }, follow(second, 1) { latest.1 = $0 })
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
