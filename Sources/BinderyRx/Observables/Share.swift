import Foundation

/// How long `share(replay:scope:)` keeps its replay buffer.
public enum SubjectLifetimeScope {
    /// The buffer lives while there are subscribers; the source is resubscribed afresh after.
    case whileConnected
    /// The buffer lives forever; late subscribers also get a terminal event.
    case forever
}

extension ObservableType {
    /// Shares one subscription to the source among all subscribers, replaying
    /// the last `replay` elements to each new one. The source is subscribed on
    /// the first subscription and disposed when the last one goes away.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        let connection = ShareConnection(source: asObservable(), replay: replay, scope: scope)
        return Observable { observer in connection.subscribe(observer) }
    }
}

/// The shared state behind one `share` operator.
final class ShareConnection<Element>: @unchecked Sendable {
    private let source: Observable<Element>
    private let replay: Int
    private let scope: SubjectLifetimeScope
    private let lock = NSRecursiveLock()
    private var subject: ReplaySubject<Element>?
    private var connection: SingleAssignmentDisposable?
    private var count = 0

    init(source: Observable<Element>, replay: Int, scope: SubjectLifetimeScope) {
        self.source = source
        self.replay = replay
        self.scope = scope
    }

    private func makeSubject() -> ReplaySubject<Element> {
        ReplaySubject.create(bufferSize: replay)
    }

    func subscribe(_ observer: AnyObserver<Element>) -> Disposable {
        lock.withLock {
            let subject = self.subject ?? makeSubject()
            self.subject = subject
            count += 1
            let subscription = subject.subscribe(observer)
            if connection == nil {
                let connection = SingleAssignmentDisposable()
                self.connection = connection
                connection.setDisposable(source.subscribe { [weak self] event in
                    self?.lock.withLock {
                        if event.isStopEvent, self?.scope == .whileConnected {
                            self?.subject = nil
                            self?.connection = nil
                        }
                    }
                    subject.on(event)
                })
            }
            return Disposables.create { [weak self] in
                subscription.dispose()
                self?.release()
            }
        }
    }

    private func release() {
        lock.withLock {
            count -= 1
            guard count == 0 else { return }
            connection?.dispose()
            connection = nil
            if scope == .whileConnected { subject = nil }
        }
    }
}
