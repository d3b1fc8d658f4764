import Foundation

/// A subject that replays up to `bufferSize` past elements (and the terminal event) to each new subscriber.
///
/// Thread safety: safe to send to and subscribe from any thread; deliveries are serialized.
public final class ReplaySubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, @unchecked Sendable {
    let core: SubjectCore<Element>

    /// A subject guarded by `lock`, which `share` hands to all its subjects.
    init(bufferSize: Int, lock: NSRecursiveLock = NSRecursiveLock()) {
        core = SubjectCore(lock: lock, bufferSize: bufferSize)
        super.init()
    }

    /// Not for decoding data (see `Observable.init(from:)`); always throws.
    public required init(from decoder: Decoder) throws { throw Self.decodingRefused(decoder) }

    /// Whether the subject has ended.
    var isStopped: Bool { core.stopEvent != nil }

    /// A subject replaying the last `bufferSize` elements.
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: bufferSize)
    }

    /// A subject replaying every element.
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: Int.max)
    }

    /// The observer side's type: the subject itself.
    public typealias SubjectObserverType = ReplaySubject<Element>

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// Whether the subject was disposed.
    public var isDisposed: Bool { core.isDisposed }

    /// Sends `event`, buffering elements.
    public func on(_ event: Event<Element>) {
        core.lock.withLock { core.deliver(event) }
    }

    /// Subscribes `observer`, which gets the buffer first; the replay runs under no lock.
    override func subscribeAsSubclass(_ observer: AnyObserver<Element>) -> Disposable {
        let (subscription, replay) = core.subscribeReplaying(observer, owner: self)
        replay?()
        return subscription
    }

    /// Subscribes `observer` and returns its replay for the caller to run once it has released its own locks.
    func subscribeDeferringReplay<Observer: ObserverType>(_ observer: Observer) -> (Disposable, replay: (() -> Void)?) where Observer.Element == Element {
        core.subscribeReplaying(observer, owner: self)
    }

    /// The observer side.
    public func asObserver() -> ReplaySubject<Element> { self }

    /// Releases every subscriber and the buffer.
    public func dispose() { core.dispose() }
}
