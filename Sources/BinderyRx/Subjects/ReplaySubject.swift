import Foundation

/// A subject that replays up to `bufferSize` past elements (and the terminal event) to each new subscriber.
///
/// Thread safety: safe to send to and subscribe from any thread; deliveries are serialized.
public final class ReplaySubject<Element>: SubjectType, ObserverType, Cancelable, @unchecked Sendable {
    let core: SubjectCore<Element>
    private let bufferSize: Int
    private var buffer: [Element] = []

    /// A subject guarded by `lock`, which `share` hands to all its subjects.
    init(bufferSize: Int, lock: NSRecursiveLock = NSRecursiveLock()) {
        self.bufferSize = bufferSize
        core = SubjectCore(lock: lock)
    }

    /// Whether the subject has ended; call with the lock held.
    var isStopped: Bool { core.stopEvent != nil }

    /// A subject replaying the last `bufferSize` elements.
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: bufferSize)
    }

    /// A subject replaying every element.
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: Int.max)
    }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// Whether the subject was disposed.
    public var isDisposed: Bool { core.isDisposed }

    /// Sends `event`, buffering elements.
    public func on(_ event: Event<Element>) {
        core.lock.withLock {
            guard core.stopEvent == nil, !core.isDisposed else { return }
            if case .next(let value) = event, bufferSize > 0 {
                buffer.append(value)
                if buffer.count > bufferSize { buffer.removeFirst(buffer.count - bufferSize) }
            }
            core.deliver(event)
        }
    }

    /// Subscribes `observer`, which gets the buffer first.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        core.lock.withLock {
            if !core.isDisposed {
                for value in buffer { observer.on(.next(value)) }
            }
            return core.subscribe(observer, owner: self)
        }
    }

    /// The observer side.
    public func asObserver() -> ReplaySubject<Element> { self }

    /// Releases every subscriber and the buffer.
    public func dispose() {
        core.dispose()
        core.lock.withLock { buffer = [] }
    }
}
