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
        /// The last `bufferSize` elements, for a replaying subject.
        var buffer: [Element] = []
    }

    let lock: NSRecursiveLock
    private let stateLock = NSLock()
    private var _state = State()
    private let bufferSize: Int

    /// A core delivering under `lock`, keeping the last `bufferSize` elements to replay;
    /// `share` passes its own lock so that it and its subject never lock in opposite orders.
    init(lock: NSRecursiveLock = NSRecursiveLock(), bufferSize: Int = 0) {
        self.lock = lock
        self.bufferSize = bufferSize
    }

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
            // Buffered in the same step as the observers are read: a subscriber comes in either
            // before (and gets the element live) or after (and gets it replayed), never both.
            if bufferSize > 0, case .next(let element) = event {
                state.buffer.append(element)
                if state.buffer.count > bufferSize { state.buffer.removeFirst(state.buffer.count - bufferSize) }
            }
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
            state.buffer = []
        }
    }

    /// Subscribes `observer` and returns, apart from how to unsubscribe it, what it must be
    /// replayed (the buffer, then the stop event of an ended subject), to be run by the caller
    /// once it holds no lock: the observer may take locks of its own, which a thread holding
    /// them may be waiting to trade for this subject's (RxSwift's #2713). Elements sent while
    /// the replay runs wait behind it.
    func subscribeReplaying<Observer: ObserverType>(_ observer: Observer, owner: AnyObject) -> (Disposable, replay: (() -> Void)?) where Observer.Element == Element {
        // Registration and the snapshot of what to replay are one step under the state lock.
        let (subscriber, gate, buffer, stop, disposed) = withState { state -> (Subscriber?, ReplayGate<Observer>?, [Element], Event<Element>?, Bool) in
            if state.isDisposed { return (nil, nil, [], nil, true) }
            if let stop = state.stopEvent { return (nil, nil, state.buffer, stop, false) }
            // Nothing to replay (the usual case once a chain runs): no gate, nothing added per element.
            if state.buffer.isEmpty {
                let subscriber = Subscriber(AnyObserver(observer))
                state.observers.append(subscriber)
                return (subscriber, nil, [], nil, false)
            }
            let gate = ReplayGate(observer)
            let subscriber = Subscriber(AnyObserver(eventHandler: gate.on))
            state.observers.append(subscriber)
            return (subscriber, gate, state.buffer, nil, false)
        }
        if disposed {
            return (Disposables.create(), { observer.on(.error(RxError.disposed(object: owner))) })
        }
        guard let subscriber else {
            return (Disposables.create(), {
                for element in buffer { observer.on(.next(element)) }
                if let stop { observer.on(stop) }
            })
        }
        let subscription = Disposables.create { [weak self] in
            subscriber.isActive.store(false, ordering: .releasing)
            self?.withState { $0.observers.removeAll { $0 === subscriber } }
        }
        return (subscription, gate.map { gate in { gate.replay(buffer) } })
    }
}

/// Holds back the live events of a subscriber until its replay is done, then lets them through.
private final class ReplayGate<Observer: ObserverType>: @unchecked Sendable {
    private let observer: Observer
    private let lock = NSLock()
    private let isOpen = Atomic(false)
    private var pending: [Event<Observer.Element>] = []

    init(_ observer: Observer) { self.observer = observer }

    func on(_ event: Event<Observer.Element>) {
        if isOpen.load(ordering: .acquiring) { return observer.on(event) }
        let held = lock.withLock { () -> Bool in
            if isOpen.load(ordering: .relaxed) { return false }
            pending.append(event)
            return true
        }
        if !held { observer.on(event) }
    }

    /// Delivers `buffer`, then what arrived meanwhile, then opens.
    func replay(_ buffer: [Observer.Element]) {
        for element in buffer { observer.on(.next(element)) }
        while let event = lock.withLock({ () -> Event<Observer.Element>? in
            if pending.isEmpty {
                isOpen.store(true, ordering: .releasing)
                return nil
            }
            return pending.removeFirst()
        }) {
            observer.on(event)
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
