/// The trait of `Single`: exactly one element, or an error.
public enum SingleTrait {}

/// A sequence of exactly one element or an error: `success | failure`.
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>

/// What a `Single` delivers, as in RxSwift 6: `.success(element)` or `.failure(error)`.
public typealias SingleEvent<Element> = Result<Element, Swift.Error>

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// The callback a `Single.create` closure reports to.
    public typealias SingleObserver = (SingleEvent<Element>) -> Void

    /// A single whose subscriptions run `subscribe`; only the first event counts.
    public static func create(subscribe: @escaping (@escaping SingleObserver) -> Disposable) -> Single<Element> {
        Single(raw: Observable.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.on(.next(element))
                    observer.on(.completed)
                case .failure(let error):
                    observer.on(.error(error))
                }
            }
        })
    }

    /// A single that succeeds at once with `element`.
    public static func just(_ element: Element) -> Single<Element> {
        Single(raw: Observable.just(element))
    }

    /// A single that succeeds with `element`, delivered on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Single<Element> {
        Single(raw: Observable.just(element, scheduler: scheduler))
    }

    /// Subscribes a closure to the result.
    public func subscribe(_ observer: @escaping (SingleEvent<Element>) -> Void) -> Disposable {
        var stopped = false
        return primitiveSequence.source.subscribe { event in
            guard !stopped else { return }
            switch event {
            case .next(let element):
                stopped = true
                observer(.success(element))
            case .error(let error):
                stopped = true
                observer(.failure(error))
            case .completed:
                // A source that completes empty breaks the single's contract.
                observer(.failure(RxError.noElements))
            }
        }
    }

    /// Subscribes closures to success, failure and disposal; a failure with no
    /// `onFailure` goes to `Hooks.defaultErrorHandler`.
    public func subscribe(onSuccess: ((Element) -> Void)? = nil, onFailure: ((Swift.Error) -> Void)? = nil, onDisposed: (() -> Void)? = nil) -> Disposable {
        let disposed: Disposable = onDisposed.map { Disposables.create(with: $0) } ?? Disposables.create()
        let callStack = onFailure == nil ? Hooks.subscriptionCallStack() : []
        let subscription = subscribe { event in
            defer { disposed.dispose() }
            switch event {
            case .success(let element): onSuccess?(element)
            case .failure(let error):
                if let onFailure { onFailure(error) } else { Hooks.defaultErrorHandler(callStack, error) }
            }
        }
        return Disposables.create(subscription, disposed)
    }

    /// Subscribes closures, passing `object` (held weakly) to each.
    public func subscribe<Object: AnyObject>(with object: Object, onSuccess: ((Object, Element) -> Void)? = nil, onFailure: ((Object, Swift.Error) -> Void)? = nil, onDisposed: ((Object) -> Void)? = nil) -> Disposable {
        subscribe(
            onSuccess: { [weak object] element in object.map { onSuccess?($0, element) } },
            onFailure: { [weak object] error in object.map { onFailure?($0, error) } },
            onDisposed: { [weak object] in object.map { onDisposed?($0) } }
        )
    }

    /// Old name of `subscribe(onSuccess:onFailure:onDisposed:)`.
    @available(*, deprecated, renamed: "subscribe(onSuccess:onFailure:onDisposed:)")
    public func subscribe(onSuccess: ((Element) -> Void)? = nil, onError: @escaping (Swift.Error) -> Void, onDisposed: (() -> Void)? = nil) -> Disposable {
        subscribe(onSuccess: onSuccess, onFailure: onError, onDisposed: onDisposed)
    }

    /// Transforms the element.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<Result> {
        Single(raw: primitiveSequence.source.map(transform))
    }

    /// Transforms the element, completing empty on nil.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.compactMap(transform))
    }

    /// Continues with the single `selector` returns for the element.
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Single<Result>) -> Single<Result> {
        Single(raw: primitiveSequence.source.flatMap(selector))
    }

    /// Continues with the maybe `selector` returns for the element.
    public func flatMapMaybe<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.flatMap(selector))
    }

    /// Continues with the completable `selector` returns for the element.
    public func flatMapCompletable(_ selector: @escaping (Element) throws -> Completable) -> Completable {
        Completable(raw: primitiveSequence.source.flatMap(selector))
    }

    /// Runs side effects on success, failure, subscription and disposal.
    public func `do`(onSuccess: ((Element) throws -> Void)? = nil, afterSuccess: ((Element) throws -> Void)? = nil, onError: ((Swift.Error) throws -> Void)? = nil, afterError: ((Swift.Error) throws -> Void)? = nil, onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil, onDispose: (() -> Void)? = nil) -> Single<Element> {
        Single(raw: primitiveSequence.source.do(onNext: onSuccess, afterNext: afterSuccess, onError: onError, afterError: afterError, onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// The element if it satisfies `predicate`, else an empty completion: a `Maybe`.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.filter(predicate))
    }

    /// On failure, succeeds with `element` instead.
    public func catchAndReturn(_ element: Element) -> Single<Element> {
        Single(raw: primitiveSequence.source.catchAndReturn(element))
    }

    /// RxSwift 5's name of `catchAndReturn(_:)`, which RxSwift 6 still ships deprecated.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Single<Element> { catchAndReturn(element) }

    /// The single as a `Maybe`.
    public func asMaybe() -> Maybe<Element> { Maybe(raw: primitiveSequence.source) }

    /// The single, ignoring its element, as a `Completable`.
    public func asCompletable() -> Completable { Completable(raw: primitiveSequence.source.ignoreElements()) }

    /// This single.
    public func asSingle() -> Single<Element> { primitiveSequence }
}
