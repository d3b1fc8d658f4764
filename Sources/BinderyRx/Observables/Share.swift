import Foundation

/// How long `share(replay:scope:)` keeps its replay subject.
public enum SubjectLifetimeScope {
    /// Each connection to the source has its own subject: when the source ends or
    /// the last subscriber leaves, the buffer goes and the next subscriber reconnects.
    case whileConnected
    /// One subject for all connections: after the source ends, new subscribers get
    /// the buffer and the terminal event and the source is not subscribed again.
    case forever
}

extension ObservableType {
    /// Shares one subscription to the source among all subscribers, replaying
    /// the last `replay` elements to each new one. The source is subscribed on
    /// the first subscription and disposed when the last one goes away.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        let connectable = ShareConnectable(source: asObservable(), replay: replay, scope: scope)
        return Observable { observer in connectable.subscribe(observer) }
    }
}

/// The shared state behind one `share` operator: the current connection to the
/// source, counted by its subscribers.
///
/// Thread safety: one recursive lock, shared with every subject it makes, guards
/// the state and delivery, so subscribing and delivering never lock in opposite orders.
final class ShareConnectable<Element>: @unchecked Sendable {
    private final class Connection {
        let subject: ReplaySubject<Element>
        let subscription = SingleAssignmentDisposable()
        var count = 0
        init(subject: ReplaySubject<Element>) { self.subject = subject }
    }

    private let source: Observable<Element>
    private let replay: Int
    private let scope: SubjectLifetimeScope
    private let lock = NSRecursiveLock()
    private var connection: Connection?
    private lazy var foreverSubject = makeSubject()

    init(source: Observable<Element>, replay: Int, scope: SubjectLifetimeScope) {
        self.source = source
        self.replay = replay
        self.scope = scope
    }

    private func makeSubject() -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: replay, lock: lock)
    }

    func subscribe(_ observer: AnyObserver<Element>) -> Disposable {
        // Connecting and disconnecting happen outside the lock: the source may be a
        // subject delivering into this lock from another thread right now.
        let (subscription, replay, connection, connect) = lock.withLock { () -> (Disposable, (() -> Void)?, Connection?, Bool) in
            let connection = self.connection ?? Connection(subject: scope == .forever ? foreverSubject : makeSubject())
            let (subscription, replay) = connection.subject.subscribeDeferringReplay(observer)
            // A `.forever` subject that has ended replays everything, end included, and needs no connection.
            if connection.subject.isStopped { return (subscription, replay, nil, false) }
            connection.count += 1
            let isNew = self.connection == nil
            if isNew { self.connection = connection }
            return (subscription, replay, connection, isNew)
        }
        // Replayed under no lock: the observer may take one that a thread subscribing here holds (RxSwift's #2653).
        replay?()
        guard let connection else { return subscription }
        if connect {
            connection.subscription.setDisposable(source.subscribe { [weak self, lock] event in
                lock.withLock {
                    if event.isStopEvent, let self, self.connection === connection { self.connection = nil }
                    connection.subject.on(event)
                }
            })
        }
        // The subscription keeps the share alive, as in RxSwift: `relay.asDriver().drive(x)`
        // on a temporary must go on delivering after the temporary is gone.
        return Disposables.create {
            subscription.dispose()
            self.release(connection)
        }
    }

    private func release(_ connection: Connection) {
        let disconnect = lock.withLock { () -> Bool in
            connection.count -= 1
            guard connection.count == 0 else { return false }
            if self.connection === connection { self.connection = nil }
            return true
        }
        if disconnect { connection.subscription.dispose() }
    }
}
