import Foundation

extension ConnectableObservableType {
    /// Connects on the first subscription and disconnects when the last one goes away or
    /// the source ends; a later subscription connects again.
    public func refCount() -> Observable<Element> {
        let state = RefCountState(source: self)
        return Observable { observer in state.subscribe(observer) }
    }
}

/// The count of subscribers of one `refCount`, and its connection.
///
/// Thread safety: one lock guards the count; connecting and disconnecting happen outside it.
final class RefCountState<Source: ConnectableObservableType>: @unchecked Sendable {
    private let source: Source
    private let lock = NSLock()
    private var count = 0
    // Which connection a subscriber belongs to: the source's end starts a new one.
    private var connectionId: UInt64 = 0
    private var connection: SingleAssignmentDisposable?

    init(source: Source) { self.source = source }

    func subscribe(_ observer: AnyObserver<Source.Element>) -> Disposable {
        var joined: UInt64?
        var stopped = false
        let subscription = source.subscribe(AnyObserver<Source.Element> { [self] event in
            if event.isStopEvent {
                let ended = lock.withLock { () -> Disposable? in
                    stopped = true
                    guard joined == connectionId else { return nil }
                    defer { connection = nil }
                    count = 0
                    connectionId &+= 1
                    return connection
                }
                ended?.dispose()
            }
            observer.on(event)
        })
        let (ended, connect) = lock.withLock { () -> (Bool, SingleAssignmentDisposable?) in
            joined = connectionId
            // It ended while subscribing (a subject replaying its end): nothing to connect.
            if stopped { return (true, nil) }
            count += 1
            guard count == 1 else { return (false, nil) }
            let made = SingleAssignmentDisposable()
            connection = made
            return (false, made)
        }
        if ended { return subscription }
        connect?.setDisposable(source.connect())
        return Disposables.create { [self] in
            subscription.dispose()
            let disconnect = lock.withLock { () -> Disposable? in
                guard joined == connectionId else { return nil }
                count -= 1
                guard count == 0 else { return nil }
                defer { connection = nil }
                return connection
            }
            disconnect?.dispose()
        }
    }
}
