import Foundation
import Synchronization

/// A reactor's action input: a subject that only ever delivers `.next`. An error or a
/// completion sent to it is dropped, so a view's binding that ends (a control's
/// `completed`, a failed request bound to it) never ends the reactor's stream.
///
/// Thread safety: send and subscribe from any thread; deliveries are serialized, and an
/// observer may send back into the subject while it is delivering (the reactor's
/// scheduler then queues what it sends).
public final class ActionSubject<Element>: ObservableType, ObserverType, SubjectType, @unchecked Sendable {
    /// One subscriber; the flag lets one disposed during a delivery miss the rest of it.
    final class Subscriber: @unchecked Sendable {
        let observer: AnyObserver<Element>
        let isActive = Atomic(true)
        init(_ observer: AnyObserver<Element>) { self.observer = observer }
    }

    /// Serializes deliveries; recursive, so that an observer may send again.
    private let delivering = NSRecursiveLock()
    /// Guards `_observers`; never held while calling out.
    private let state = NSLock()
    private var _observers: [Subscriber] = []

    /// The subscribers, in subscription order.
    var observers: [Subscriber] { state.withLock { _observers } }

    /// A subject with no subscribers.
    public init() {}

    /// Subscribes `observer` to the actions sent from now on.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let subscriber = Subscriber(observer.asObserver())
        state.withLock { _observers.append(subscriber) }
        return Disposables.create { [weak self] in
            subscriber.isActive.store(false, ordering: .releasing)
            guard let self else { return }
            self.state.withLock { self._observers.removeAll { $0 === subscriber } }
        }
    }

    /// Delivers an action to every subscriber; drops `.error` and `.completed`.
    public func on(_ event: Event<Element>) {
        guard case .next = event else { return }
        delivering.withLock {
            for subscriber in observers where subscriber.isActive.load(ordering: .acquiring) {
                subscriber.observer.on(event)
            }
        }
    }

    /// The observer side: this subject.
    public func asObserver() -> ActionSubject<Element> { self }
}
