/// The trait of `Completable`: no elements, just completion or an error.
public enum CompletableTrait {}

/// A sequence without elements: `completed | error`.
public typealias Completable = PrimitiveSequence<CompletableTrait, Swift.Never>

/// What a `Completable` delivers.
@frozen public enum CompletableEvent {
    /// The work failed.
    case error(Swift.Error)
    /// The work finished.
    case completed
}

extension CompletableEvent: Equatable {
    /// Errors compare by type and description, as `Event`'s do.
    public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed): return true
        case let (.error(l), .error(r)): return sameError(l, r)
        default: return false
        }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// The callback a `Completable.create` closure reports to.
    public typealias CompletableObserver = (CompletableEvent) -> Void

    /// A completable whose subscriptions run `subscribe`; only the first event counts.
    public static func create(subscribe: @escaping (@escaping CompletableObserver) -> Disposable) -> Completable {
        Completable(raw: Observable.create { observer in
            subscribe { event in
                switch event {
                case .error(let error): observer.on(.error(error))
                case .completed: observer.on(.completed)
                }
            }
        })
    }

    /// A completable that completes at once.
    public static func empty() -> Completable { Completable(raw: Observable.empty()) }

    /// Runs side effects on failure, completion, subscription and disposal.
    public func `do`(onError: ((Swift.Error) throws -> Void)? = nil, afterError: ((Swift.Error) throws -> Void)? = nil, onCompleted: (() throws -> Void)? = nil, afterCompleted: (() throws -> Void)? = nil, onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil, onDispose: (() -> Void)? = nil) -> Completable {
        Completable(raw: primitiveSequence.source.do(onError: onError, afterError: afterError, onCompleted: onCompleted, afterCompleted: afterCompleted, onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// Subscribes a closure to the result.
    public func subscribe(_ observer: @escaping (CompletableEvent) -> Void) -> Disposable {
        primitiveSequence.source.subscribe { event in
            switch event {
            case .next: break
            case .error(let error): observer(.error(error))
            case .completed: observer(.completed)
            }
        }
    }

    /// Subscribes closures to completion, error and disposal; an error with no
    /// `onError` goes to `Hooks.defaultErrorHandler`.
    public func subscribe(onCompleted: (() -> Void)? = nil, onError: ((Swift.Error) -> Void)? = nil, onDisposed: (() -> Void)? = nil) -> Disposable {
        let disposed: Disposable = onDisposed.map { Disposables.create(with: $0) } ?? Disposables.create()
        let callStack = onError == nil ? Hooks.subscriptionCallStack() : []
        let subscription = subscribe { event in
            defer { disposed.dispose() }
            switch event {
            case .error(let error):
                if let onError { onError(error) } else { Hooks.defaultErrorHandler(callStack, error) }
            case .completed: onCompleted?()
            }
        }
        return Disposables.create(subscription, disposed)
    }

    /// Runs this, then `second`.
    public func andThen(_ second: Completable) -> Completable {
        Completable(raw: primitiveSequence.source.concat(second.asObservable()))
    }

    /// Runs this, then emits the single's result.
    public func andThen<Element>(_ second: Single<Element>) -> Single<Element> {
        Single(raw: primitiveSequence.source.ignoreElements().map { _ -> Element in }.concat(second.asObservable()))
    }

    /// Runs this, then emits the maybe's result.
    public func andThen<Element>(_ second: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.ignoreElements().map { _ -> Element in }.concat(second.asObservable()))
    }

    /// Runs this, then emits the observable's events.
    public func andThen<Element>(_ second: Observable<Element>) -> Observable<Element> {
        primitiveSequence.source.map { _ -> Element in }.concat(second)
    }

    /// This completable.
    public func asCompletable() -> Completable { primitiveSequence }
}
