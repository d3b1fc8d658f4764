/// A subject that delivers only its last element, and only once it completes (then to late
/// subscribers too); an error is delivered alone.
///
/// Thread safety: safe to send to and subscribe from any thread; deliveries are serialized.
public final class AsyncSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, @unchecked Sendable {
    let core = SubjectCore<Element>()
    private var lastElement: Element?

    /// A new subject.
    public override init() { super.init() }

    /// Not for decoding data (see `Observable.init(from:)`); always throws.
    public required init(from decoder: Decoder) throws { throw Self.decodingRefused(decoder) }

    /// The observer side's type: the subject itself.
    public typealias SubjectObserverType = AsyncSubject<Element>

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// Whether the subject was disposed.
    public var isDisposed: Bool { core.isDisposed }

    /// Keeps an element; on completion sends the last one, then completion; sends an error at once.
    public func on(_ event: Event<Element>) {
        core.lock.withLock {
            guard core.stopEvent == nil, !core.isDisposed else { return }
            switch event {
            case .next(let element):
                lastElement = element
            case .error:
                lastElement = nil
                core.deliver(event)
            case .completed:
                if let lastElement { core.deliver(.next(lastElement)) }
                core.deliver(event)
            }
        }
    }

    /// Subscribes `observer`; after completion it gets the last element and completion at once.
    override func subscribeAsSubclass(_ observer: AnyObserver<Element>) -> Disposable {
        // Checked under the delivery lock, so that a completion cannot slip in between; what an
        // ended subject replays goes out after the lock is released.
        let (outcome, last) = core.lock.withLock { (core.add(AnyObserver(observer)), lastElement) }
        switch outcome {
        case .success(let subscription):
            return subscription
        case .failure(.disposed):
            observer.on(.error(RxError.disposed(object: self)))
        case .failure(.stopped(let stop)):
            if case .completed = stop, let last { observer.on(.next(last)) }
            observer.on(stop)
        }
        return Disposables.create()
    }

    /// The observer side.
    public func asObserver() -> AsyncSubject<Element> { self }

    /// Releases every subscriber; later use errors with `RxError.disposed`.
    public func dispose() {
        core.dispose()
        core.lock.withLock { lastElement = nil }
    }
}
