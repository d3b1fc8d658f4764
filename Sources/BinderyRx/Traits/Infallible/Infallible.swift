/// A sequence that never fails: `next* completed?`, as RxSwift 6's `Infallible`.
public struct Infallible<Element>: InfallibleType {
    let source: Observable<Element>

    /// Wraps `source`, which must never fail.
    init(_ source: Observable<Element>) { self.source = source }

    /// The sequence as an `Observable`.
    public func asObservable() -> Observable<Element> { source }

    /// This sequence.
    public func asInfallible() -> Infallible<Element> { self }
}

/// Something that is an `Infallible`.
public protocol InfallibleType: ObservableConvertibleType {
    /// The sequence as an `Infallible`.
    func asInfallible() -> Infallible<Element>
}

/// What an `Infallible.create` closure sends: elements and completion, never an error.
@frozen public enum InfallibleEvent<Element> {
    /// The next element.
    case next(Element)
    /// The sequence finished.
    case completed
}

extension InfallibleEvent: EventConvertible {
    /// The event as an `Event`.
    public var event: Event<Element> {
        switch self {
        case .next(let element): return .next(element)
        case .completed: return .completed
        }
    }
}

extension Infallible {
    /// What `create`'s closure is given to send events with.
    public typealias InfallibleObserver = (InfallibleEvent<Element>) -> Void
}

extension ObservableConvertibleType {
    /// An infallible that, on error, emits `element` and completes.
    public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
        Infallible(asObservable().catchAndReturn(element))
    }

    /// An infallible that, on error, continues with `infallible`.
    public func asInfallible(onErrorFallbackTo infallible: Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { _ in infallible.asObservable() })
    }

    /// An infallible that, on error, continues with the infallible `recover` returns.
    public func asInfallible(onErrorRecover recover: @escaping (Swift.Error) -> Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { recover($0).asObservable() })
    }
}

extension InfallibleType {
    /// An infallible whose subscriptions run `subscribe`.
    public static func create(subscribe: @escaping (@escaping (InfallibleEvent<Element>) -> Void) -> Disposable) -> Infallible<Element> {
        Infallible(Observable.create { observer in
            subscribe { event in
                switch event {
                case .next(let element): observer.on(.next(element))
                case .completed: observer.on(.completed)
                }
            }
        })
    }

    /// An infallible of one element.
    public static func just(_ element: Element) -> Infallible<Element> { Infallible(Observable.just(element)) }

    /// An infallible that completes at once.
    public static func empty() -> Infallible<Element> { Infallible(Observable.empty()) }

    /// An infallible that never delivers anything.
    public static func never() -> Infallible<Element> { Infallible(Observable.never()) }

    /// An infallible of the given elements, each delivered on `scheduler`.
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(Observable.from(elements, scheduler: scheduler))
    }

    /// An infallible of the array's elements, each delivered on `scheduler`.
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(Observable.from(array, scheduler: scheduler))
    }

    /// An infallible of a Swift sequence's elements, each delivered on `scheduler`.
    public static func from<Sequence: Swift.Sequence>(_ sequence: Sequence, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> where Sequence.Element == Element {
        Infallible(Observable.from(sequence, scheduler: scheduler))
    }

    /// An infallible made anew by `factory` for each subscription.
    public static func deferred(_ factory: @escaping () -> Infallible<Element>) -> Infallible<Element> {
        Infallible(Observable.deferred { factory().asObservable() })
    }

    /// Subscribes closures to elements, completion and disposal.
    public func subscribe(onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil) -> Disposable {
        asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes closures, passing `object` (held weakly) to each.
    public func subscribe<Object: AnyObject>(with object: Object, onNext: ((Object, Element) -> Void)? = nil, onCompleted: ((Object) -> Void)? = nil, onDisposed: ((Object) -> Void)? = nil) -> Disposable {
        asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes a closure to every event.
    public func subscribe(_ on: @escaping (InfallibleEvent<Element>) -> Void) -> Disposable {
        asObservable().subscribe { event in
            switch event {
            case .next(let element): on(.next(element))
            case .completed: on(.completed)
            case .error: break
            }
        }
    }

    /// Sends the elements to each observer.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        asObservable().subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Sends the elements, as optionals, to each observer.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        asObservable().map { $0 as Element? }.subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Subscribes `binder` to the sequence and returns what it returns.
    public func bind<Result>(to binder: (Self) -> Result) -> Result { binder(self) }

    /// Calls `onNext` for each element.
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        asObservable().subscribe(onNext: onNext)
    }
}
