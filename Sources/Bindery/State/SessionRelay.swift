import Foundation

/// A `BehaviorRelay` whose value is the session's to keep: saved with the
/// session shortly after it changes, and given back when the session is
/// rebuilt (after a restart, or when an idle session is asked for again).
///
/// It is one word in a ViewModel: where a `BehaviorRelay` holds what a user
/// would expect to find again, write `SessionRelay`.
///
/// ```swift
/// let currentColorIndexRelay = SessionRelay<Int>(value: 0)   // was BehaviorRelay
/// ```
///
/// A session keeps the `SessionRelay`s its ViewModel makes while it is made:
/// in its factory, its `init`, or `bind`. Each is known by its place among
/// them (the order they are made) and its type, so a new version of a
/// ViewModel that adds, removes or reorders them, or changes their types,
/// starts its stored sessions afresh, with a logged warning, rather than
/// misreading them. Made anywhere else (a test, a later turn), it is a plain
/// `BehaviorRelay`. `Element` is `Codable`: the value is stored as JSON.
///
/// Thread safety: `accept` and `value` are safe from any thread, as a `BehaviorRelay`'s.
public final class SessionRelay<Element: Codable>: ObservableType, Sendable {
    private let relay: BehaviorRelay<Element>
    /// The state of the session being made when this relay was, if any. Held,
    /// not weak: the state holds the relay only weakly (no cycle), and a weak
    /// reference here would keep its side table only in the state's encoded
    /// reference count once this relay is gone, which LeakSanitizer takes for
    /// a leak at exit (a kept relay's state lives until then).
    private let state: SessionState?

    /// A relay holding `value`, or the value it had when its session was
    /// saved if the session is being rebuilt.
    public init(value: Element) {
        let state = SessionState.current
        relay = BehaviorRelay(value: state?.restoredValue(as: Element.self) ?? value)
        self.state = state
        state?.declare(type: Element.self) { [weak relay] in try relay.map { try SessionState.encoder.encode($0.value) } }
    }

    /// The current value.
    public var value: Element { relay.value }

    /// Sets the value, delivers it, and marks the session's state changed.
    public func accept(_ event: Element) {
        relay.accept(event)
        // After the value is set: a save that begins in between still sees the change marked.
        state?.changed()
    }

    /// Subscribes `observer`, which gets the current value at once.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        relay.subscribe(observer)
    }

    /// The relay as an observable.
    public func asObservable() -> Observable<Element> { relay.asObservable() }

    /// The relay as an `Infallible`: a relay never fails.
    public func asInfallible() -> Infallible<Element> { relay.asInfallible() }

    /// The relay as a `Driver`: it never fails.
    public func asDriver() -> Driver<Element> { relay.asDriver() }
}

extension ObservableType where Element: Codable {
    /// Sets every relay in `relays` to each element (as `bind(to:)` a `BehaviorRelay`).
    public func bind(to relays: SessionRelay<Element>...) -> Disposable {
        subscribe(
            onNext: { element in relays.forEach { $0.accept(element) } },
            onError: { error in assertionFailure("Binding error: \(error)") })
    }
}
