import BinderyRx
import BinderyRxTest
import XCTest

final class CatchTests: XCTestCase {
    func testContinuesWithTheHandlersSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start { xs.catch { _ in ys.asObservable() } }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 240)])
    }

    func testSynchronousErrorKeepsTheHandlersSubscription() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let subscription = Observable<Int>.error(TestError.boom).catch { _ in subject.asObservable() }.subscribe(onNext: { values.append($0) })
        subject.onNext(1)
        XCTAssertEqual(values, [1])
        subscription.dispose()
        XCTAssertFalse(subject.hasObservers)
    }

    func testCatchAndReturnHandlerThrowsAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
        XCTAssertEqual(scheduler.start { xs.catchAndReturn(9) }.events, [.next(210, 1), .next(220, 9), .completed(220)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.error(220, TestError.boom, Int.self)])
        XCTAssertEqual(other.start { ys.catch { _ in throw TestError.other } }.events, [.error(220, TestError.other)])

        let third = TestScheduler(initialClock: 0)
        let zs = third.createHotObservable([.error(220, TestError.boom, Int.self)])
        let fallback = third.createColdObservable([.next(10, 1)])
        XCTAssertEqual(third.start(disposed: 225) { zs.catch { _ in fallback.asObservable() } }.events, [])
        XCTAssertEqual(fallback.subscriptions, [Subscription(220, 225)])
    }
}

final class RetryTests: XCTestCase {
    func testRetryResubscribesUpToTheCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError.boom)])
        let res = scheduler.start { xs.retry(3) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1), .next(250, 1), .error(260, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
    }

    func testRetryForeverUntilDisposedAndCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError.boom)])
        let res = scheduler.start(disposed: 245) { xs.retry() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 245)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createColdObservable([.next(10, 1), .completed(20)])
        XCTAssertEqual(other.start { ys.retry() }.events, [.next(210, 1), .completed(220)])
    }

    func testRetryOfASynchronousFailureDoesNotRecurse() {
        var attempts = 0
        let failing = Observable<Int>.deferred {
            attempts += 1
            return attempts < 10_000 ? .error(TestError.boom) : .just(attempts)
        }
        var values: [Int] = []
        _ = failing.retry().subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, [10_000])
    }
}
