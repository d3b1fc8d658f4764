/// A value that can be set and observed, and never ends: a stub's state (`Stub.state`).
/// Each subscriber gets the current value first, then every value set, equal or not.
///
/// Thread safety: set and subscribe from any thread; deliveries are serialized.
public final class StateRelay<Element>: ObservableType, @unchecked Sendable {
    private let subject: BehaviorSubject<Element>
    /// Made once, so that a stubbed reactor's `state` is the same object each time it is read.
    private let observable: Observable<Element>

    /// A relay holding `value`.
    public init(value: Element) {
        subject = BehaviorSubject(value: value)
        observable = subject.asObservable()
    }

    /// The current value; setting it delivers the new one.
    public var value: Element {
        // The subject is never ended nor disposed, so it always has a value.
        get { try! subject.value() }
        set { accept(newValue) }
    }

    /// Sets the value and delivers it.
    public func accept(_ element: Element) { subject.onNext(element) }

    /// Subscribes `observer`, which gets the current value at once.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an observable: the same object every time.
    public func asObservable() -> Observable<Element> { observable }
}
