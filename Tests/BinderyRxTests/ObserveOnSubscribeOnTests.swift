import BinderyRx
import BinderyRxTest
import Dispatch
import Foundation
import XCTest

final class ObserveOnTests: XCTestCase {
    func testBurstIsDeliveredOneScheduledStepPerEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2).observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .completed(203)])
    }

    func testErrorWaitsBehindElementsAndDisposeDropsTheRest() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(210, TestError.boom)])
        XCTAssertEqual(scheduler.start { xs.observe(on: scheduler) }.events, [.next(211, 1), .error(212, TestError.boom)])
        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .next(210, 2)])
        XCTAssertEqual(other.start(disposed: 211) { ys.observe(on: other) }.events, [])
    }

    func testOrderIsKeptOnAConcurrentScheduler() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let lock = NSLock()
        var received: [Int] = []
        let done = expectation(description: "completed")
        let subscription = Observable.from(Array(0..<1000)).observe(on: scheduler).subscribe(
            onNext: { value in lock.withLock { received.append(value) } },
            onCompleted: { done.fulfill() }
        )
        wait(for: [done], timeout: 10)
        subscription.dispose()
        XCTAssertEqual(lock.withLock { received }, Array(0..<1000))
    }
}

final class SubscribeOnTests: XCTestCase {
    func testSubscribesAndDisposesThroughTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 301)])
    }

    func testDisposeBeforeSubscriptionCancelsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { xs.subscribe(on: scheduler).subscribe(observer).dispose() }
        scheduler.start()
        XCTAssertEqual(xs.subscriptions, [])
        XCTAssertEqual(observer.events, [])
    }
}
