import BinderyRx
import BinderyRxTest
import XCTest

final class TakeSkipTests: XCTestCase {
    private var scheduler: TestScheduler!
    private var xs: TestableObservable<Int>!

    override func setUp() {
        scheduler = TestScheduler(initialClock: 0)
        xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
    }

    func testTakeCompletesAfterCountAndDisposesSource() {
        let res = scheduler.start { self.xs.take(2) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    /// An observer that sends back into the source while `take(1)` delivers must find the count spent.
    func testTakeCountsBeforeForwarding() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var completed = 0
        _ = subject.take(1).subscribe(onNext: { value in
            received.append(value)
            subject.onNext(value + 1)
        }, onCompleted: { completed += 1 })
        subject.onNext(1)
        XCTAssertEqual(received, [1])
        XCTAssertEqual(completed, 1)
    }

    func testTakeForADuration() {
        let res = scheduler.start { self.xs.take(for: .seconds(25), scheduler: self.scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(225)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .error(215, TestError.boom)])
        XCTAssertEqual(other.start { ys.take(for: .seconds(50), scheduler: other) }.events, [.next(210, 1), .error(215, TestError.boom)])
    }

    func testSkipForADuration() {
        let res = scheduler.start { self.xs.skip(.seconds(15), scheduler: self.scheduler) }
        XCTAssertEqual(res.events, [.next(220, 2), .next(230, 3), .completed(240)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .error(215, TestError.boom)])
        XCTAssertEqual(other.start { ys.skip(.seconds(50), scheduler: other) }.events, [.error(215, TestError.boom)], "errors pass at any time")
    }

    func testTakeZeroNeverSubscribes() {
        let res = scheduler.start { self.xs.take(0) }
        XCTAssertEqual(res.events, [.completed(200)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testTakeForwardsErrorAndDispose() {
        let failing = scheduler.createHotObservable([.next(210, 1), .error(215, TestError.boom)])
        XCTAssertEqual(scheduler.start { failing.take(5) }.events, [.next(210, 1), .error(215, TestError.boom)])
        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .next(220, 2)])
        XCTAssertEqual(other.start(disposed: 215) { ys.take(5) }.events, [.next(210, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 215)])
    }

    func testTakeUntilOtherEmits() {
        let other = scheduler.createHotObservable([.next(225, "stop")])
        let res = scheduler.start { self.xs.take(until: other) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(225)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 225)])
    }

    func testTakeUntilOtherErrorsOrCompletes() {
        let failing = scheduler.createHotObservable([.error(215, TestError.boom, String.self)])
        XCTAssertEqual(scheduler.start { self.xs.take(until: failing) }.events, [.next(210, 1), .error(215, TestError.boom)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .next(220, 2), .completed(240)])
        let silent = other.createHotObservable([.completed(215, String.self)])
        XCTAssertEqual(other.start { ys.take(until: silent) }.events, [.next(210, 1), .next(220, 2), .completed(240)])
        XCTAssertEqual(silent.subscriptions, [Subscription(200, 215)])
    }

    func testTakeUntilPredicate() {
        XCTAssertEqual(scheduler.start { self.xs.take(until: { $0 == 2 }, behavior: .inclusive) }.events, [.next(210, 1), .next(220, 2), .completed(220)])
    }

    func testTakeWhile() {
        let res = scheduler.start { self.xs.take(while: { $0 < 3 }) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .next(220, 5)])
        XCTAssertEqual(other.start { ys.take(while: { $0 < 3 }, behavior: .inclusive) }.events, [.next(210, 1), .next(220, 5), .completed(220)])
    }

    func testSkip() {
        let res = scheduler.start { self.xs.skip(2) }
        XCTAssertEqual(res.events, [.next(230, 3), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
    }

    func testSkipWhile() {
        XCTAssertEqual(scheduler.start { self.xs.skip(while: { $0 < 2 }) }.events, [.next(220, 2), .next(230, 3), .completed(240)])
    }

    func testSkipUntil() {
        let other = scheduler.createHotObservable([.next(215, "go"), .next(225, "again")])
        let res = scheduler.start { self.xs.skip(until: other) }
        XCTAssertEqual(res.events, [.next(220, 2), .next(230, 3), .completed(240)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 215)])
    }

    /// A source that ends before the trigger fires can never let anything through: both go at once.
    func testSkipUntilLetsBothGoWhenTheSourceEndsFirst() {
        let other = scheduler.createHotObservable([.next(300, 0)])
        let res = scheduler.start { self.xs.skip(until: other) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 240)])
    }

    func testSkipUntilOtherErrorAndNeverOpened() {
        let failing = scheduler.createHotObservable([.error(215, TestError.boom, String.self)])
        XCTAssertEqual(scheduler.start { self.xs.skip(until: failing) }.events, [.error(215, TestError.boom)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .completed(220)])
        let never = other.createHotObservable([.next(300, "late")])
        XCTAssertEqual(other.start { ys.skip(until: never) }.events, [])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 220)])
    }
}
