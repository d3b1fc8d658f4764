import BinderyRx
import BinderyRxTest
import XCTest

/// The flatMap family on one scenario: inner 1 runs 210–240, inner 2 arrives at 220 and would run 220–235.
final class FlatMapTests: XCTestCase {
    private var scheduler: TestScheduler!
    private var xs: TestableObservable<Int>!
    private var ys1: TestableObservable<Int>!
    private var ys2: TestableObservable<Int>!

    override func setUp() {
        scheduler = TestScheduler(initialClock: 0)
        ys1 = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        ys2 = scheduler.createColdObservable([.next(5, 10), .completed(15)])
        xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
    }

    private func inner(_ value: Int) -> TestableObservable<Int> { value == 1 ? ys1 : ys2 }

    func testFlatMapMergesAllInners() {
        let res = scheduler.start { self.xs.flatMap { self.inner($0) } }
        XCTAssertEqual(res.events, [.next(220, 1), .next(225, 10), .next(230, 2), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(220, 235)])
    }

    /// The outer sequence goes as soon as it completes, while the latest inner runs on.
    func testFlatMapLatestAndSwitchLatestLetTheOuterGoWhenItCompletes() {
        let res = scheduler.start { self.xs.flatMapLatest { _ in self.ys1 } }
        XCTAssertEqual(res.events, [.next(230, 1), .next(240, 2), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])

        let other = TestScheduler(initialClock: 0)
        let inner = other.createColdObservable([.next(50, 1), .completed(60)])
        let outer = other.createHotObservable([.next(210, inner), .completed(220)])
        let switched = other.start { outer.switchLatest() }
        XCTAssertEqual(switched.events, [.next(260, 1), .completed(270)])
        XCTAssertEqual(outer.subscriptions, [Subscription(200, 220)])
    }

    func testFlatMapLatestSwitches() {
        let res = scheduler.start { self.xs.flatMapLatest { self.inner($0) } }
        XCTAssertEqual(res.events, [.next(225, 10), .completed(235)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 220)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(220, 235)])
    }

    func testFlatMapFirstIgnoresWhileBusy() {
        let res = scheduler.start { self.xs.flatMapFirst { self.inner($0) } }
        XCTAssertEqual(res.events, [.next(220, 1), .next(230, 2), .completed(240)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(ys2.subscriptions, [])
    }

    func testConcatMapQueues() {
        let res = scheduler.start { self.xs.concatMap { self.inner($0) } }
        XCTAssertEqual(res.events, [.next(220, 1), .next(230, 2), .next(245, 10), .completed(255)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(240, 255)])
    }

    func testSwitchLatest() {
        let res = scheduler.start { self.xs.map { self.inner($0) }.switchLatest() }
        XCTAssertEqual(res.events, [.next(225, 10), .completed(235)])
    }

    func testMergeOfInnersAndConcatOfInners() {
        let merged = scheduler.start { self.xs.map { self.inner($0) }.merge() }
        XCTAssertEqual(merged.events, [.next(220, 1), .next(225, 10), .next(230, 2), .completed(240)])
    }

    func testConcatOfInners() {
        let concatenated = scheduler.start { self.xs.map { self.inner($0) }.concat() }
        XCTAssertEqual(concatenated.events, [.next(220, 1), .next(230, 2), .next(245, 10), .completed(255)])
    }

    func testInnerErrorEndsEverything() {
        let failing = scheduler.createColdObservable([.next(5, 7), .error(10, TestError.boom)])
        let res = scheduler.start { self.xs.flatMap { $0 == 1 ? self.ys1 : failing } }
        // ys1's element at 230 was scheduled before the failing inner's error at 230.
        XCTAssertEqual(res.events, [.next(220, 1), .next(225, 7), .next(230, 2), .error(230, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(failing.subscriptions, [Subscription(220, 230)])
    }

    func testSelectorThrowsAndOuterError() {
        let res = scheduler.start { self.xs.flatMap { value -> TestableObservable<Int> in
            if value == 2 { throw TestError.boom }
            return self.ys1
        } }
        // The hot source's element at 220 was scheduled before ys1's.
        XCTAssertEqual(res.events, [.error(220, TestError.boom)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 220)])

        let other = TestScheduler(initialClock: 0)
        let outer = other.createHotObservable([.next(210, 1), .error(215, TestError.other)])
        let inner = other.createColdObservable([.next(10, 1)])
        XCTAssertEqual(other.start { outer.flatMap { _ in inner } }.events, [.error(215, TestError.other)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 215)])
    }

    func testDisposeDisposesOuterAndInners() {
        let res = scheduler.start(disposed: 222) { self.xs.flatMap { self.inner($0) } }
        XCTAssertEqual(res.events, [.next(220, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 222)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 222)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(220, 222)])
    }

    func testMergeMaxConcurrent() {
        let res = scheduler.start { self.xs.map { self.inner($0) }.merge(maxConcurrent: 1) }
        XCTAssertEqual(res.events, [.next(220, 1), .next(230, 2), .next(245, 10), .completed(255)])
    }
}
