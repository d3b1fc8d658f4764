import BinderyRx
import BinderyRxTest
import XCTest

final class DebounceTests: XCTestCase {
    func testEmitsAfterQuietPeriod() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(250, 3), .completed(300)])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 2), .next(270, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testCompletionFlushesPendingAndErrorDropsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(215)])
        XCTAssertEqual(scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }.events, [.next(215, 1), .completed(215)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .error(215, TestError.boom)])
        XCTAssertEqual(other.start { ys.debounce(.seconds(20), scheduler: other) }.events, [.error(215, TestError.boom)])
    }

    func testDisposeCancelsPending() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        XCTAssertEqual(scheduler.start(disposed: 220) { xs.debounce(.seconds(20), scheduler: scheduler) }.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testResolutionConvertsIntervals() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        XCTAssertEqual(scheduler.start { xs.debounce(.milliseconds(30), scheduler: scheduler) }.events, [.next(240, 1)])
    }
}

final class ThrottleTests: XCTestCase {
    func testLatestEmitsTheLastOfEachWindow() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(220, 3), .next(240, 4), .next(255, 5), .completed(300)])
        let res = scheduler.start { xs.throttle(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 3), .next(250, 4), .next(270, 5), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testNotLatestDropsInsideTheWindow() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(220, 3), .next(240, 4), .next(255, 5), .completed(300)])
        let res = scheduler.start { xs.throttle(.seconds(20), latest: false, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(240, 4), .completed(300)])
    }

    func testCompletionWaitsForThePendingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(220)])
        XCTAssertEqual(scheduler.start { xs.throttle(.seconds(20), scheduler: scheduler) }.events, [.next(210, 1), .next(230, 2), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)], "the ended source goes at once, not when the window closes")
    }

    func testErrorAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .error(220, TestError.boom)])
        XCTAssertEqual(scheduler.start { xs.throttle(.seconds(20), scheduler: scheduler) }.events, [.next(210, 1), .error(220, TestError.boom)])
        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .next(215, 2)])
        XCTAssertEqual(other.start(disposed: 225) { ys.throttle(.seconds(20), scheduler: other) }.events, [.next(210, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 225)])
    }
}

final class DelayTests: XCTestCase {
    func testShiftsElementsAndCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.delay(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, 1), .next(240, 2), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    /// As in RxSwift, each delayed event is an action of its own: two due at once are a tick apart.
    func testEventsDueAtTheSameTimeAreDeliveredOneActionApart() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.just(1).delay(.seconds(2), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(202, 1), .completed(203)])

        let other = TestScheduler(initialClock: 0)
        let xs = other.createHotObservable([.next(210, 1), .next(210, 2), .next(215, 3), .completed(230)])
        let shifted = other.start { xs.delay(.seconds(10), scheduler: other) }
        XCTAssertEqual(shifted.events, [.next(220, 1), .next(221, 2), .next(225, 3), .completed(240)])
    }

    func testErrorIsImmediateAndDisposeCancels() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(215, TestError.boom)])
        XCTAssertEqual(scheduler.start { xs.delay(.seconds(20), scheduler: scheduler) }.events, [.error(215, TestError.boom)])
        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1)])
        XCTAssertEqual(other.start(disposed: 220) { ys.delay(.seconds(20), scheduler: other) }.events, [])
    }

    func testDelaySubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 250)])
        let other = TestScheduler(initialClock: 0)
        let ys = other.createColdObservable([.next(10, 1)])
        XCTAssertEqual(other.start(disposed: 220) { ys.delaySubscription(.seconds(30), scheduler: other) }.events, [])
        XCTAssertEqual(ys.subscriptions, [])
    }
}

final class TimeoutTests: XCTestCase {
    func testFailsWhenTheGapIsTooLong() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(270, 3)])
        let res = scheduler.start { xs.timeout(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .error(260, RxError.timeout)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testSwitchesToOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(270, 3)])
        let other = scheduler.createColdObservable([.next(5, 100), .completed(10)])
        let res = scheduler.start { xs.timeout(.seconds(30), other: other, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(245, 100), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(other.subscriptions, [Subscription(240, 250)])
    }

    func testCompletionAndErrorBeforeTimeout() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        XCTAssertEqual(scheduler.start { xs.timeout(.seconds(30), scheduler: scheduler) }.events, [.next(210, 1), .completed(220)])
        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.error(220, TestError.boom, Int.self)])
        XCTAssertEqual(other.start { ys.timeout(.seconds(30), scheduler: other) }.events, [.error(220, TestError.boom)])
    }
}

final class IntervalTimerTests: XCTestCase {
    func testInterval() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 235) { Observable<Int>.interval(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 0), .next(220, 1), .next(230, 2)])
    }

    func testTimerOnceAndPeriodic() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.start { Observable<Int>.timer(.seconds(30), scheduler: scheduler) }.events, [.next(230, 0), .completed(230)])
        let periodic = TestScheduler(initialClock: 0)
        let res = periodic.start(disposed: 255) { Observable<Int>.timer(.seconds(30), period: .seconds(10), scheduler: periodic) }
        XCTAssertEqual(res.events, [.next(230, 0), .next(240, 1), .next(250, 2)])
    }
}
