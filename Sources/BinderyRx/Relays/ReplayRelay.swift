/// A `ReplaySubject` that never terminates.
///
/// Thread safety: `accept` is safe from any thread; deliveries are serialized.
public final class ReplayRelay<Element>: ObservableType, @unchecked Sendable {
    private let subject: ReplaySubject<Element>

    private init(subject: ReplaySubject<Element>) { self.subject = subject }

    /// A relay replaying the last `bufferSize` elements.
    public static func create(bufferSize: Int) -> ReplayRelay<Element> {
        ReplayRelay(subject: .create(bufferSize: bufferSize))
    }

    /// A relay replaying every element.
    public static func createUnbound() -> ReplayRelay<Element> {
        ReplayRelay(subject: .createUnbounded())
    }

    /// Delivers `event` and buffers it.
    public func accept(_ event: Element) { subject.onNext(event) }

    /// Subscribes `observer`, which gets the buffer first.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an observable.
    public func asObservable() -> Observable<Element> { subject.asObservable() }

    /// The relay as an `Infallible`: a relay never fails.
    public func asInfallible() -> Infallible<Element> { Infallible(asObservable()) }
}
