import Foundation
import Synchronization

extension ObservableType {
    /// A connectable sequence that, once connected, sends the source's events into `subject`.
    public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        MulticastConnectable(source: asObservable(), makeSubject: { subject }).connectable()
    }

    /// A connectable sequence that sends the source's events into a subject made for each
    /// connection: after the source ends or the connection is disposed, the next subscriber
    /// or `connect()` gets a new one.
    public func multicast<Subject: SubjectType>(makeSubject: @escaping () -> Subject) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        MulticastConnectable(source: asObservable(), makeSubject: makeSubject).connectable()
    }

    /// For each subscription, a subject from `subjectSelector` shares the source within
    /// the sequence `selector` makes of it; the source is connected once that is subscribed.
    public func multicast<Subject: SubjectType, Result>(
        _ subjectSelector: @escaping () throws -> Subject,
        selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>
    ) -> Observable<Result> where Subject.Observer.Element == Element {
        let source = asObservable()
        return Observable { observer in
            do {
                let subject = try subjectSelector()
                let connectable = MulticastConnectable(source: source, makeSubject: { subject }).connectable()
                let subscription = try selector(connectable.asObservable()).subscribe(observer)
                return Disposables.create(subscription, connectable.connect())
            } catch {
                observer.on(.error(error))
                return Disposables.create()
            }
        }
    }

    /// A connectable sequence sharing the source through a `PublishSubject`.
    public func publish() -> ConnectableObservable<Element> {
        multicast(makeSubject: { PublishSubject() })
    }

    /// A connectable sequence sharing the source through a `ReplaySubject` of `bufferSize` elements.
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject.create(bufferSize: bufferSize) })
    }

    /// A connectable sequence sharing the source through a `ReplaySubject` that replays everything.
    public func replayAll() -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject.createUnbounded() })
    }
}

/// The state behind a `multicast`: its subject and its connection to the source.
///
/// Thread safety: one lock guards the subject and the connection; subscribing to the
/// subject, subscribing to the source and disposing that subscription happen outside it.
final class MulticastConnectable<Subject: SubjectType>: @unchecked Sendable {
    typealias SourceElement = Subject.Observer.Element

    /// One subscription of the subject to the source; it ends at the source's terminal event or when disposed.
    final class Connection: Disposable, @unchecked Sendable {
        private weak var parent: MulticastConnectable?
        private let observer: Subject.Observer
        let subscription = SingleAssignmentDisposable()
        private let disposed = Atomic<Bool>(false)

        init(parent: MulticastConnectable, observer: Subject.Observer) {
            self.parent = parent
            self.observer = observer
        }

        func on(_ event: Event<SourceElement>) {
            if disposed.load(ordering: .acquiring) { return }
            if event.isStopEvent { dispose() }
            observer.on(event)
        }

        func dispose() {
            guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
            parent?.release(self)
            subscription.dispose()
        }
    }

    private let source: Observable<SourceElement>
    private let makeSubject: () -> Subject
    private let lock = NSRecursiveLock()
    private var subject: Subject?
    private var connection: Connection?

    init(source: Observable<SourceElement>, makeSubject: @escaping () -> Subject) {
        self.source = source
        self.makeSubject = makeSubject
    }

    /// The public face, which keeps this state alive.
    func connectable() -> ConnectableObservable<Subject.Element> {
        ConnectableObservable(connect: connect, subscribe: { observer in self.currentSubject().subscribe(observer) })
    }

    private func currentSubject() -> Subject {
        lock.withLock {
            if let subject { return subject }
            let made = makeSubject()
            subject = made
            return made
        }
    }

    private func connect() -> Disposable {
        let (connection, isNew) = lock.withLock { () -> (Connection, Bool) in
            if let connection = self.connection { return (connection, false) }
            let connection = Connection(parent: self, observer: currentSubject().asObserver())
            self.connection = connection
            return (connection, true)
        }
        if isNew {
            connection.subscription.setDisposable(source.subscribe { [connection] event in connection.on(event) })
        }
        return connection
    }

    private func release(_ ended: Connection) {
        lock.withLock {
            guard connection === ended else { return }
            connection = nil
            subject = nil
        }
    }
}
