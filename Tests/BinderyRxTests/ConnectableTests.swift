import BinderyRx
import BinderyRxTest
import XCTest

/// `publish`, `replay`, `multicast` and `refCount`, in virtual time, as RxSwift's.
final class ConnectableTests: XCTestCase {
    func testPublishDeliversOnlyWhileConnectedAndStartsOverAfterADisconnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .next(310, 3), .next(360, 4), .completed(400)])
        let published = xs.publish()
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var connection: Disposable?
        scheduler.scheduleAt(200) { _ = published.subscribe(first) }
        scheduler.scheduleAt(230) { connection = published.connect() }
        scheduler.scheduleAt(300) { connection?.dispose() }
        // The next connection has a subject of its own: the first subscriber's is gone.
        scheduler.scheduleAt(340) { _ = published.subscribe(second) }
        scheduler.scheduleAt(350) { connection = published.connect() }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(240, 2)])
        XCTAssertEqual(second.events, [.next(360, 4), .completed(400)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 300), Subscription(350, 400)])
    }

    func testConnectTwiceSharesOneConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let published = xs.publish()
        scheduler.scheduleAt(200) {
            _ = published.connect()
            _ = published.connect()
        }
        scheduler.start()
        XCTAssertEqual(xs.subscriptions, [Subscription(200)])
    }

    func testReplayGivesTheBufferToLateSubscribers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        let replayed = xs.replay(2)
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let all = scheduler.createObserver(Int.self)
        let replayedAll = xs.replayAll()
        scheduler.scheduleAt(200) {
            _ = replayed.connect()
            _ = replayedAll.connect()
            _ = replayed.subscribe(early)
        }
        scheduler.scheduleAt(240) {
            _ = replayed.subscribe(late)
            _ = replayedAll.subscribe(all)
        }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        XCTAssertEqual(late.events, [.next(240, 2), .next(240, 3), .completed(250)])
        XCTAssertEqual(all.events, [.next(240, 1), .next(240, 2), .next(240, 3), .completed(250)])
    }

    func testAFactorySubjectStartsOverAfterTheSourceEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let replayed = xs.replay(1)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            _ = replayed.subscribe(first)
            _ = replayed.connect()
        }
        scheduler.scheduleAt(300) {
            _ = replayed.subscribe(second)
            _ = replayed.connect()
        }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.events, [.next(310, 1), .completed(320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
    }

    func testAGivenSubjectIsNotRenewed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let subject = ReplaySubject<Int>.create(bufferSize: 1)
        let multicasted = xs.multicast(subject)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = multicasted.connect() }
        scheduler.scheduleAt(300) { _ = multicasted.subscribe(late) }
        scheduler.start()
        XCTAssertEqual(late.events, [.next(300, 1), .completed(300)])
    }

    func testRefCountConnectsWithTheFirstAndDisconnectsWithTheLast() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(260, 3), .next(310, 4)])
        let shared = xs.publish().refCount()
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) { subscriptions.append(shared.subscribe(first)) }
        scheduler.scheduleAt(220) { subscriptions.append(shared.subscribe(second)) }
        scheduler.scheduleAt(240) { subscriptions[0].dispose() }
        scheduler.scheduleAt(270) { subscriptions[1].dispose() }
        scheduler.scheduleAt(300) { subscriptions.append(shared.subscribe(first)) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(230, 2), .next(310, 4)])
        XCTAssertEqual(second.events, [.next(230, 2), .next(260, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 270), Subscription(300)])
    }

    func testRefCountReconnectsAfterTheSourceEnded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let shared = xs.publish().refCount()
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = shared.subscribe(first) }
        scheduler.scheduleAt(300) { _ = shared.subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.events, [.next(310, 1), .completed(320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
    }

    func testMulticastWithASelectorConnectsPerSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }, selector: { shared in Observable.zip(shared, shared.skip(1)) { $0 * 10 + $1 } })
        }
        XCTAssertEqual(res.events, [.next(220, 12), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testMulticastSelectorErrorsReachTheSubscriber() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let res = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }, selector: { _ -> Observable<Int> in throw TestError.boom })
        }
        XCTAssertEqual(res.events, [.error(200, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [])
    }
}
