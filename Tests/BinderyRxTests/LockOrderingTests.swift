import BinderyRx
import Dispatch
import Foundation
import XCTest

/// An operator or subject must not call out (subscribe, replay, tear down) while it holds its
/// own lock: the code it calls may take a lock that another thread holds while that thread
/// waits for the operator's lock. Each test sets up exactly that interleaving with semaphores;
/// a lock held across the call-out deadlocks until the waits time out and the test fails.
final class LockOrderingTests: XCTestCase {
    /// Long enough never to expire on a loaded machine unless the threads are deadlocked.
    private let patience: TimeInterval = 5

    /// Stands in for a lock some other part of the app holds: one thread takes it and then
    /// reaches into the operator, while the operator's call-out needs it.
    private final class ForeignLock: @unchecked Sendable {
        private let lock = NSRecursiveLock()
        private let held = DispatchSemaphore(value: 0)
        private let callOutStarted = DispatchSemaphore(value: 0)
        private let acquiredByCallOut = DispatchSemaphore(value: 0)
        private let patience: TimeInterval

        init(patience: TimeInterval) { self.patience = patience }

        /// On one thread: holds the lock, waits until the call-out began, then runs `reach` (which needs the operator's lock).
        func holdWhileReaching(_ reach: () -> Void) {
            lock.lock()
            held.signal()
            _ = callOutStarted.wait(timeout: .now() + patience)
            reach()
            lock.unlock()
        }

        /// On the other thread: waits until the lock is held, then runs `trigger`, which makes the operator call out.
        func afterItIsHeld(_ trigger: () -> Void) {
            _ = held.wait(timeout: .now() + patience)
            trigger()
        }

        /// Inside the call-out: takes the lock, giving up after the patience.
        func takeFromCallOut() {
            callOutStarted.signal()
            if lock.lock(before: Date().addingTimeInterval(patience)) {
                lock.unlock()
                acquiredByCallOut.signal()
            }
        }

        /// Whether the call-out got the lock, i.e. the operator did not hold its own lock meanwhile.
        func callOutAcquired() -> Bool { acquiredByCallOut.wait(timeout: .now() + patience) == .success }
    }

    /// Runs the two sides on two threads and waits for both.
    private func race(_ foreign: ForeignLock, reach: @escaping () -> Void, trigger: @escaping () -> Void, file: StaticString = #filePath, line: UInt = #line) {
        let finished = DispatchGroup()
        for side in [{ foreign.holdWhileReaching(reach) }, { foreign.afterItIsHeld(trigger) }] {
            finished.enter()
            Thread.detachNewThread {
                side()
                finished.leave()
            }
        }
        XCTAssertEqual(finished.wait(timeout: .now() + patience * 3), .success, "the two threads deadlocked", file: file, line: line)
        XCTAssertTrue(foreign.callOutAcquired(), "the call-out ran under the operator's lock", file: file, line: line)
    }

    /// What a subscriber received, from whichever thread.
    private final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var _elements: [Int] = []
        var elements: [Int] { lock.withLock { _elements } }
        func on(_ element: Int) { lock.withLock { _elements.append(element) } }
    }

    /// A source whose teardown needs the foreign lock.
    private func source(_ subject: PublishSubject<Int>, tornDownWith foreign: ForeignLock) -> Observable<Int> {
        Observable.create { observer in
            let subscription = subject.subscribe(observer)
            return Disposables.create {
                foreign.takeFromCallOut()
                subscription.dispose()
            }
        }
    }

    func testReplaySubjectReplaysOutsideItsLock() {
        let foreign = ForeignLock(patience: patience)
        let subject = ReplaySubject<Int>.create(bufferSize: 1)
        subject.onNext(1)
        let reached = Received(), triggered = Received()
        race(foreign, reach: { _ = subject.subscribe(onNext: reached.on) }, trigger: {
            subject.subscribe(onNext: { triggered.on($0); foreign.takeFromCallOut() }).dispose()
        })
        XCTAssertEqual(reached.elements, [1], "the replay reached the subscriber that waited")
        XCTAssertEqual(triggered.elements, [1])
    }

    func testShareReplaysOutsideItsLock() {
        for scope in [SubjectLifetimeScope.whileConnected, .forever] {
            let foreign = ForeignLock(patience: patience)
            let source = PublishSubject<Int>()
            let shared = source.share(replay: 2, scope: scope)
            let connection = shared.subscribe { _ in }
            source.onNext(1)
            let reached = Received(), triggered = Received()
            race(foreign, reach: { _ = shared.subscribe(onNext: reached.on) }, trigger: {
                shared.subscribe(onNext: { triggered.on($0); foreign.takeFromCallOut() }).dispose()
            })
            source.onNext(2)
            XCTAssertEqual(reached.elements, [1, 2], "\(scope): the replay, then what followed")
            XCTAssertEqual(triggered.elements, [1], "\(scope)")
            connection.dispose()
        }
    }

    func testRefCountDisconnectsOutsideItsLock() {
        let foreign = ForeignLock(patience: patience)
        let subject = PublishSubject<Int>()
        let shared = source(subject, tornDownWith: foreign).publish().refCount()
        let first = shared.subscribe { _ in }
        var second: Disposable?
        let received = Received()
        race(foreign, reach: { second = shared.subscribe(onNext: received.on) }, trigger: { first.dispose() })
        subject.onNext(5)
        XCTAssertEqual(received.elements, [5], "the later subscriber connected again and hears the source")
        second?.dispose()
    }

    func testMulticastDisconnectsOutsideItsLock() {
        let foreign = ForeignLock(patience: patience)
        let subject = PublishSubject<Int>()
        let replayed = source(subject, tornDownWith: foreign).replay(1)
        let connection = replayed.connect()
        subject.onNext(6)
        race(foreign, reach: { _ = replayed.connect() }, trigger: { connection.dispose() })
        let received = Received()
        let subscription = replayed.subscribe(onNext: received.on)
        subject.onNext(7)
        XCTAssertEqual(received.elements.last, 7, "connected again, the source reaches the subscriber")
        subscription.dispose()
    }

    func testMergeTearsDownACompletedInnerOutsideItsLock() {
        let foreign = ForeignLock(patience: patience)
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let received = Received()
        let subscription = Observable.merge(source(first, tornDownWith: foreign), second.asObservable()).subscribe(onNext: received.on)
        first.onNext(0)
        race(foreign, reach: { second.onNext(1) }, trigger: { first.onCompleted() })
        second.onNext(2)
        XCTAssertEqual(received.elements, [0, 1, 2], "the other inner goes on")
        subscription.dispose()
    }

    func testFlatMapTearsDownACompletedInnerOutsideItsLock() {
        let foreign = ForeignLock(patience: patience)
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let inners = PublishSubject<Observable<Int>>()
        let received = Received()
        let subscription = inners.flatMap { $0 }.subscribe(onNext: received.on)
        inners.onNext(source(first, tornDownWith: foreign))
        inners.onNext(second.asObservable())
        first.onNext(0)
        race(foreign, reach: { second.onNext(1) }, trigger: { first.onCompleted() })
        second.onNext(2)
        XCTAssertEqual(received.elements, [0, 1, 2], "the other inner goes on")
        subscription.dispose()
    }

    func testMergeSubscribesToAnInnerOutsideItsLock() {
        // The inner's subscription waits for an element that another thread sends through the same merge.
        let other = PublishSubject<Int>()
        let arrived = DispatchSemaphore(value: 0)
        var waited: DispatchTimeoutResult?
        let inner = Observable<Int>.create { _ in
            Thread.detachNewThread { other.onNext(1) }
            waited = arrived.wait(timeout: .now() + self.patience)
            return Disposables.create()
        }
        let subscription = Observable.of(other.asObservable(), inner).merge().subscribe(onNext: { _ in arrived.signal() })
        XCTAssertEqual(waited, .success, "the merge subscribed to the inner under its lock")
        subscription.dispose()
    }

    func testZipTearsDownACompletedSourceOutsideItsLock() {
        let foreign = ForeignLock(patience: patience)
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let subscription = Observable.zip([source(first, tornDownWith: foreign), second.asObservable()]).subscribe { _ in }
        race(foreign, reach: { second.onNext(1) }, trigger: { first.onCompleted() })
        subscription.dispose()
    }

    /// Many chains on a concurrent queue reach one replaying `share` of a source that emits on
    /// subscription, and all meet in one `zip` (RxSwift's #2653): each replay goes through a
    /// flatMap's and the zip's locks while other threads subscribe and tear down.
    func testConcurrentChainsThroughAReplayingShareIntoAZip() {
        for scope in [SubjectLifetimeScope.whileConnected, .forever] {
            for replay in [1, 2] {
                let source = Observable<Int>.create { observer in
                    observer.on(.next(1))
                    return Disposables.create()
                }
                .share(replay: replay, scope: scope)
                let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
                let chains = (0..<300).map { _ in Observable.just(0).observe(on: scheduler).flatMap { _ in source }.take(1) }
                let completed = DispatchSemaphore(value: 0)
                let subscription = Observable.zip(chains).subscribe(onCompleted: { completed.signal() })
                XCTAssertEqual(completed.wait(timeout: .now() + patience), .success, "replay \(replay), \(scope)")
                subscription.dispose()
            }
        }
    }

    func testShareWithoutReplayConnectsOnceForConcurrentFirstSubscribers() {
        /// What the threads record, behind a lock.
        final class Record: @unchecked Sendable {
            private let lock = NSLock()
            private var _connections = 0
            private var _subscriptions: [Disposable] = []
            var connections: Int { lock.withLock { _connections } }
            var subscriptions: [Disposable] { lock.withLock { _subscriptions } }
            func connected() { lock.withLock { _connections += 1 } }
            func add(_ subscription: Disposable) { lock.withLock { _subscriptions.append(subscription) } }
        }
        for _ in 0..<50 {
            let record = Record()
            let shared = Observable<Int>.never()
                .do(onSubscribe: { record.connected() })
                .share(replay: 0, scope: .whileConnected)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in record.add(shared.subscribe { _ in }) }
            XCTAssertEqual(record.connections, 1)
            record.subscriptions.forEach { $0.dispose() }
        }
    }
}
