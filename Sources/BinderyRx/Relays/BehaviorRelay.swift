/// A `BehaviorSubject` that never terminates: it holds a `value` and accepts new ones.
///
/// Thread safety: `accept` and `value` are safe from any thread; deliveries are serialized.
public final class BehaviorRelay<Element>: ObservableType, @unchecked Sendable {
    private let subject: BehaviorSubject<Element>

    /// A relay holding `value`.
    public init(value: Element) { subject = BehaviorSubject(value: value) }

    /// The current value.
    public var value: Element {
        // A relay's subject never errors and is never disposed.
        try! subject.value()
    }

    /// Sets the value and delivers it.
    public func accept(_ event: Element) { subject.onNext(event) }

    /// Subscribes `observer`, which gets the current value at once.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an observable.
    public func asObservable() -> Observable<Element> { subject.asObservable() }

    /// The relay as an `Infallible`: a relay never fails.
    public func asInfallible() -> Infallible<Element> { Infallible(asObservable()) }
}
