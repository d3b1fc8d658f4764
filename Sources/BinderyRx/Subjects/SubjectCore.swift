import Foundation

/// The shared machinery of the subjects: subscribers in subscription order, a
/// stop event, and one recursive lock that both guards the state and serializes
/// delivery, so senders on several threads never interleave inside a chain
/// while an observer may still send back into the same subject.
final class SubjectCore<Element>: @unchecked Sendable {
    let lock = NSRecursiveLock()
    private var observers: [(key: Int, observer: AnyObserver<Element>)] = []
    private var nextKey = 0
    private(set) var stopEvent: Event<Element>?
    private(set) var isDisposed = false

    var hasObservers: Bool { lock.withLock { !observers.isEmpty } }

    /// Delivers `event` to every subscriber; call with `lock` held.
    func deliver(_ event: Event<Element>) {
        guard stopEvent == nil, !isDisposed else { return }
        let current = observers
        if event.isStopEvent {
            stopEvent = event
            observers = []
        }
        for entry in current { entry.observer.on(event) }
    }

    /// Adds a subscriber; call with `lock` held. Returns how to remove it.
    func add(_ observer: AnyObserver<Element>) -> Disposable {
        let key = nextKey
        nextKey += 1
        observers.append((key, observer))
        return Disposables.create { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.observers.removeAll { $0.key == key } }
        }
    }

    func dispose() {
        lock.withLock {
            isDisposed = true
            observers = []
        }
    }
}
