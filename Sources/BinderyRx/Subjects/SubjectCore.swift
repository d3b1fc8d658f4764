import Foundation
import Synchronization

/// The shared machinery of the subjects: subscribers in subscription order and a
/// stop event, guarded by a lock that is never held while calling out (an `NSLock`,
/// which ThreadSanitizer understands, unlike the futex behind `Mutex`), plus one
/// recursive lock that serializes delivery, so senders on several threads never
/// interleave inside a chain while an observer may still send back into the
/// same subject. Adding and removing subscribers takes only the state lock, so
/// disposing never waits for a delivery in progress (which could deadlock
/// against a downstream lock).
final class SubjectCore<Element>: @unchecked Sendable {
    /// One subscriber; the flag lets a subscriber disposed in the middle of a
    /// delivery (by an earlier subscriber) miss the rest of it.
    private final class Subscriber: @unchecked Sendable {
        let observer: AnyObserver<Element>
        let isActive = Atomic(true)
        init(_ observer: AnyObserver<Element>) { self.observer = observer }
    }

    private struct State {
        var observers: [Subscriber] = []
        var stopEvent: Event<Element>?
        var isDisposed = false
    }

    let lock: NSRecursiveLock
    private let stateLock = NSLock()
    private var _state = State()

    /// A core delivering under `lock`; `share` passes its own so that it and its subject never lock in opposite orders.
    init(lock: NSRecursiveLock = NSRecursiveLock()) { self.lock = lock }

    private func withState<T>(_ body: (inout State) -> T) -> T {
        stateLock.withLock { body(&_state) }
    }

    var hasObservers: Bool { withState { !$0.observers.isEmpty } }
    var stopEvent: Event<Element>? { withState { $0.stopEvent } }
    var isDisposed: Bool { withState { $0.isDisposed } }

    /// Delivers `event` to every subscriber; call with `lock` held.
    func deliver(_ event: Event<Element>) {
        let current = withState { state -> [Subscriber] in
            guard state.stopEvent == nil, !state.isDisposed else { return [] }
            let current = state.observers
            if event.isStopEvent {
                state.stopEvent = event
                state.observers = []
            }
            return current
        }
        for subscriber in current where subscriber.isActive.load(ordering: .acquiring) {
            subscriber.observer.on(event)
        }
    }

    /// Adds a subscriber unless the subject has ended or was disposed; returns how to remove
    /// it, or else what ended the subject (`nil` stop event meaning disposed).
    func add(_ observer: AnyObserver<Element>) -> Result<Disposable, StopReason> {
        let subscriber = Subscriber(observer)
        let refusal = withState { state -> StopReason? in
            if state.isDisposed { return .disposed }
            if let stop = state.stopEvent { return .stopped(stop) }
            state.observers.append(subscriber)
            return nil
        }
        if let refusal { return .failure(refusal) }
        return .success(Disposables.create { [weak self] in
            subscriber.isActive.store(false, ordering: .releasing)
            self?.withState { $0.observers.removeAll { $0 === subscriber } }
        })
    }

    /// Why `add` refused a subscriber.
    enum StopReason: Swift.Error {
        case disposed
        case stopped(Event<Element>)
    }

    func dispose() {
        withState { state in
            state.isDisposed = true
            state.observers = []
        }
    }
}

extension SubjectCore {
    /// Subscribes `observer` the way every subject does once any replay is done:
    /// an ended subject sends its stop event, a disposed one `RxError.disposed`.
    func subscribe<Observer: ObserverType>(_ observer: Observer, owner: AnyObject) -> Disposable where Observer.Element == Element {
        switch add(AnyObserver(observer)) {
        case .success(let subscription):
            return subscription
        case .failure(.disposed):
            observer.on(.error(RxError.disposed(object: owner)))
            return Disposables.create()
        case .failure(.stopped(let stop)):
            observer.on(stop)
            return Disposables.create()
        }
    }
}
