import BinderyRx
import BinderyRxTest
import XCTest

final class ShareTests: XCTestCase {
    private var scheduler: TestScheduler!
    private var xs: TestableObservable<Int>!

    override func setUp() {
        scheduler = TestScheduler(initialClock: 0)
        xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
    }

    /// Subscribes a new observer to `shared` at each time, keeping it subscribed.
    private func observers(of shared: Observable<Int>, at times: [TestTime]) -> [TestableObserver<Int>] {
        times.map { time in
            let observer = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(time) { _ = shared.subscribe(observer) }
            return observer
        }
    }

    func testWhileConnectedSharesAndReconnectsAfterCompletion() {
        let shared = xs.share()
        let o = observers(of: shared, at: [200, 215, 250])
        scheduler.start()
        XCTAssertEqual(o[0].events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(o[1].events, [.next(220, 2), .completed(230)])
        XCTAssertEqual(o[2].events, [.next(260, 1), .next(270, 2), .completed(280)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(250, 280)])
    }

    func testReplayOneWhileConnected() {
        let shared = xs.share(replay: 1)
        let o = observers(of: shared, at: [200, 215, 250])
        scheduler.start()
        XCTAssertEqual(o[1].events, [.next(215, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(o[2].events, [.next(260, 1), .next(270, 2), .completed(280)])
    }

    func testForeverReplaysTheEndWithoutResubscribing() {
        let shared = xs.share(replay: 1, scope: .forever)
        let o = observers(of: shared, at: [200, 215, 250])
        scheduler.start()
        XCTAssertEqual(o[1].events, [.next(215, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(o[2].events, [.next(250, 2), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testForeverKeepsTheBufferAcrossReconnections() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
        let shared = source.share(replay: 1, scope: .forever)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) { subscription = shared.subscribe(first) }
        scheduler.scheduleAt(220) { subscription?.dispose() }
        scheduler.scheduleAt(250) { _ = shared.subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1)])
        XCTAssertEqual(second.events, [.next(250, 1), .next(260, 2)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 220), Subscription(250)])
    }

    func testLastSubscriberLeavingDisposesTheSource() {
        let shared = xs.share(replay: 1)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) { subscriptions.append(shared.subscribe(first)) }
        scheduler.scheduleAt(205) { subscriptions.append(shared.subscribe(second)) }
        scheduler.scheduleAt(212) { subscriptions[0].dispose() }
        scheduler.scheduleAt(214) { subscriptions[1].dispose() }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1)])
        XCTAssertEqual(second.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 214)])
    }

    func testErrorIsSharedAndClearsTheConnection() {
        let failing = scheduler.createColdObservable([.next(10, 1), .error(20, TestError.boom)])
        let shared = failing.share(replay: 1)
        let o = observers(of: shared, at: [200, 215, 240])
        scheduler.start()
        XCTAssertEqual(o[1].events, [.next(215, 1), .error(220, TestError.boom)])
        XCTAssertEqual(o[2].events, [.next(250, 1), .error(260, TestError.boom)])
        XCTAssertEqual(failing.subscriptions, [Subscription(200, 220), Subscription(240, 260)])
    }

    func testNoDeliveryAfterASubscriberIsDisposedMidDelivery() {
        let subject = PublishSubject<Int>()
        let shared = subject.share()
        var second: Disposable?
        var received: [Int] = []
        _ = shared.subscribe(onNext: { _ in second?.dispose() })
        second = shared.subscribe(onNext: { received.append($0) })
        subject.onNext(1)
        XCTAssertEqual(received, [])
    }
}
