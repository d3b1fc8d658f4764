/// A sequence that shares one subscription to its source, made by `connect()`.
public protocol ConnectableObservableType: ObservableType {
    /// Subscribes the shared subject to the source; disposing the result disconnects.
    func connect() -> Disposable
}

/// A sequence whose subscribers share one subscription to the source through a subject
/// (`publish`, `replay`, `multicast`): subscribing only joins the subject, and the source
/// is subscribed when `connect()` is called, or by `refCount()`.
///
/// Grammar and lifetime: subscribers get what the subject delivers, `next* (error |
/// completed)?`. A terminal event from the source, or disposing the connection, ends the
/// connection; with a subject factory (`multicast(makeSubject:)`, `publish`, `replay`) the
/// next subscriber or `connect()` starts over with a new subject.
///
/// Thread safety: `connect()` and `subscribe` may be called from any thread; neither calls
/// out (subscribes, disposes, delivers) while holding the connectable's lock.
///
/// As in RxSwift it is an `Observable`, so `replay(1)` can be returned as one.
public final class ConnectableObservable<Element>: Observable<Element>, ConnectableObservableType {
    private let connectHandler: () -> Disposable
    private let joinHandler: (AnyObserver<Element>) -> Disposable

    init(connect: @escaping () -> Disposable, subscribe: @escaping (AnyObserver<Element>) -> Disposable) {
        connectHandler = connect
        joinHandler = subscribe
        super.init()
    }

    /// Not for decoding data (see `Observable.init(from:)`); always throws.
    public required init(from decoder: Decoder) throws { throw Self.decodingRefused(decoder) }

    /// Subscribes the subject to the source, once per connection; returns the connection.
    public func connect() -> Disposable { connectHandler() }

    /// Subscribes `observer` to the subject.
    override func subscribeAsSubclass(_ observer: AnyObserver<Element>) -> Disposable {
        joinHandler(observer.asObserver())
    }
}
