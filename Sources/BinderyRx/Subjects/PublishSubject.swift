/// A subject that delivers to its current subscribers only; a late subscriber
/// gets just the terminal event, if there was one.
///
/// Thread safety: safe to send to and subscribe from any thread; deliveries are serialized.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, @unchecked Sendable {
    let core = SubjectCore<Element>()

    /// A new subject.
    public override init() { super.init() }

    /// Not for decoding data (see `Observable.init(from:)`); always throws.
    public required init(from decoder: Decoder) throws { throw Self.decodingRefused(decoder) }

    /// The observer side's type: the subject itself.
    public typealias SubjectObserverType = PublishSubject<Element>

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// Whether the subject was disposed.
    public var isDisposed: Bool { core.isDisposed }

    /// Sends `event` to every subscriber.
    public func on(_ event: Event<Element>) {
        core.lock.withLock { core.deliver(event) }
    }

    /// Subscribes `observer`; never waits for a delivery in progress.
    override func subscribeAsSubclass(_ observer: AnyObserver<Element>) -> Disposable {
        core.subscribe(observer, owner: self)
    }

    /// The observer side.
    public func asObserver() -> PublishSubject<Element> { self }

    /// Releases every subscriber; later use errors with `RxError.disposed`.
    public func dispose() { core.dispose() }
}
