/// A `PublishSubject` that never terminates: it only accepts elements.
///
/// Thread safety: `accept` is safe from any thread; deliveries are serialized.
public final class PublishRelay<Element>: ObservableType, @unchecked Sendable {
    private let subject = PublishSubject<Element>()

    /// A new relay.
    public init() {}

    /// Delivers `event` to current subscribers.
    public func accept(_ event: Element) { subject.onNext(event) }

    /// Subscribes `observer`.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an observable.
    public func asObservable() -> Observable<Element> { subject.asObservable() }

    /// The relay as an `Infallible`: a relay never fails.
    public func asInfallible() -> Infallible<Element> { Infallible(asObservable()) }
}
