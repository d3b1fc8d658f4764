/// A subject that holds a current value: each subscriber gets it first, then what follows.
///
/// Thread safety: safe to send to and subscribe from any thread; deliveries are serialized.
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, @unchecked Sendable {
    let core = SubjectCore<Element>()
    private var element: Element

    /// A subject whose current value is `value`.
    public init(value: Element) {
        element = value
        super.init()
    }

    /// Not for decoding data (see `Observable.init(from:)`); always throws.
    public required init(from decoder: Decoder) throws { throw Self.decodingRefused(decoder) }

    /// The observer side's type: the subject itself.
    public typealias SubjectObserverType = BehaviorSubject<Element>

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// Whether the subject was disposed.
    public var isDisposed: Bool { core.isDisposed }

    /// The current value; throws the error the subject ended with, or if disposed.
    public func value() throws -> Element {
        try core.lock.withLock {
            if core.isDisposed { throw RxError.disposed(object: self) }
            if case .error(let error) = core.stopEvent { throw error }
            return element
        }
    }

    /// Sends `event`, remembering an element as the current value.
    public func on(_ event: Event<Element>) {
        core.lock.withLock {
            guard core.stopEvent == nil, !core.isDisposed else { return }
            if case .next(let value) = event { element = value }
            core.deliver(event)
        }
    }

    /// Subscribes `observer`, which gets the current value at once.
    override func subscribeAsSubclass(_ observer: AnyObserver<Element>) -> Disposable {
        core.lock.withLock {
            let isLive = core.stopEvent == nil && !core.isDisposed
            let subscription = core.subscribe(observer, owner: self)
            if isLive { observer.on(.next(element)) }
            return subscription
        }
    }

    /// The observer side.
    public func asObserver() -> BehaviorSubject<Element> { self }

    /// Releases every subscriber.
    public func dispose() { core.dispose() }
}
