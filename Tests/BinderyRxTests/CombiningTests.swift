import BinderyRx
import BinderyRxTest
import XCTest

final class CombineLatestTests: XCTestCase {
    func testCombinesLatestAndCompletesWhenAllComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(260)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(250)])
        let res = scheduler.start { Observable.combineLatest(xs, ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(220, "1a"), .next(230, "3a"), .next(240, "3b"), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
    }

    func testCompletesWhenAnElementCanNeverBeCombined() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(210, Int.self)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .completed(300)])
        let res = scheduler.start { Observable.combineLatest(xs, ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testErrorAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError.boom)])
        let ys = scheduler.createHotObservable([.next(220, 2)])
        let res = scheduler.start { Observable.combineLatest(xs, ys).map { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 3), .error(230, TestError.boom)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])

        let other = TestScheduler(initialClock: 0)
        let a = other.createHotObservable([.next(210, 1)])
        let b = other.createHotObservable([.next(220, 2)])
        let disposed = other.start(disposed: 225) { Observable.combineLatest([a, b]).map { $0.reduce(0, +) } }
        XCTAssertEqual(disposed.events, [.next(220, 3)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 225)])
    }

    func testThreeSourcesFollowTheSameRules() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(270)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .completed(250)])
        let zs = scheduler.createHotObservable([.next(230, true), .completed(260)])
        let res = scheduler.start { Observable.combineLatest(xs, ys, zs) { "\($0)\($1)\($2)" } }
        XCTAssertEqual(res.events, [.next(230, "1atrue"), .next(240, "2atrue"), .completed(270)])

        let other = TestScheduler(initialClock: 0)
        let a = other.createHotObservable([.completed(210, Int.self)])
        let b = other.createHotObservable([.next(220, 1), .completed(230)])
        let c = other.createHotObservable([.next(240, 2)])
        let never = other.start { Observable.combineLatest(a, b, c) { $0 + $1 + $2 } }
        XCTAssertEqual(never.events, [.completed(240)], "a completed empty: the first element after every other source is done ends it")
    }

    func testEmptyCollectionEmitsTheEmptyCombinationAndCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.combineLatest([Observable<Int>]()) }
        XCTAssertEqual(res.events, [.next(200, []), .completed(200)])
    }

    func testEmptyCollectionWithAResultSelectorEmitsItsResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.combineLatest([Observable<Int>]()) { $0.count + 42 } }
        XCTAssertEqual(res.events, [.next(200, 42), .completed(200)])

        let failing = TestScheduler(initialClock: 0).start {
            Observable.combineLatest([Observable<Int>]()) { _ -> Int in throw TestError.boom }
        }
        XCTAssertEqual(failing.events, [.error(200, TestError.boom)])
    }
}

final class ZipTests: XCTestCase {
    func testPairsByIndex() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let ys = scheduler.createHotObservable([.next(215, "a"), .next(225, "b"), .next(250, "c"), .completed(260)])
        let res = scheduler.start { Observable.zip(xs, ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(215, "1a"), .next(225, "2b"), .next(250, "3c"), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 260)])
    }

    func testCollectionCompletesWhenAnElementCanNeverBePaired() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createHotObservable([.next(230, 10), .next(240, 20), .completed(300)])
        let res = scheduler.start { Observable.zip([xs, ys]) }
        XCTAssertEqual(res.events, [.next(230, [1, 10]), .completed(240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
    }

    /// RxSwift's fixed-arity zip completes only once every source has, even when one ended empty.
    func testFixedArityCompletesWhenEverySourceHasCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createHotObservable([.next(230, "a"), .next(240, "b"), .completed(300)])
        let res = scheduler.start { Observable.zip(xs, ys).map { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(230, "1a"), .completed(300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])

        let other = TestScheduler(initialClock: 0)
        let empty = other.createHotObservable([.completed(210, Int.self)])
        let late = other.createHotObservable([.next(215, 2), .completed(220)])
        let arity3 = other.start { Observable.zip(empty, late, late) { $0 + $1 + $2 } }
        XCTAssertEqual(arity3.events, [.completed(220)])
    }

    func testErrorAndCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let ys = scheduler.createHotObservable([.next(215, 10), .error(230, TestError.boom)])
        let res = scheduler.start { Observable.zip([xs, ys]) }
        XCTAssertEqual(res.events, [.next(215, [1, 10]), .error(230, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testArityThree() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1)])
        let b = scheduler.createHotObservable([.next(220, 2)])
        let c = scheduler.createHotObservable([.next(230, 3)])
        let res = scheduler.start(disposed: 500) { Observable.zip(a, b, c) { $0 + $1 + $2 } }
        XCTAssertEqual(res.events, [.next(230, 6)])
        XCTAssertEqual(c.subscriptions, [Subscription(200, 500)])
    }
}

final class WithLatestFromTests: XCTestCase {
    func testUsesLatestOfSecondAndCompletesWithSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(260)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(245)])
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(230, "2a"), .next(250, "3b"), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 245)])
    }

    func testErrorFromSecondIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let ys = scheduler.createHotObservable([.next(205, "a"), .error(220, TestError.boom)])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        XCTAssertEqual(res.events, [.next(210, "a"), .error(220, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }
}

final class SampleTests: XCTestCase {
    func testSamplesNewElementsAndCompletesOnTheSampleAfterTheSourceEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .completed(260)])
        let sampler = scheduler.createHotObservable([.next(215, "s"), .next(230, "s"), .next(235, "s"), .next(250, "s"), .next(270, "s"), .completed(280)])
        let res = scheduler.start { xs.sample(sampler) }
        XCTAssertEqual(res.events, [.next(215, 1), .next(230, 2), .next(250, 3), .completed(270)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
        XCTAssertEqual(sampler.subscriptions, [Subscription(200, 270)])
    }

    func testDefaultValueAndErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let sampler = scheduler.createHotObservable([.next(220, "s"), .next(230, "s"), .error(240, TestError.boom)])
        let res = scheduler.start { xs.sample(sampler, defaultValue: 0) }
        XCTAssertEqual(res.events, [.next(220, 1), .next(230, 0), .error(240, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
    }
}

final class MergeConcatTests: XCTestCase {
    func testMergeCompletesWhenAllComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(240)])
        let ys = scheduler.createHotObservable([.next(220, 2), .completed(250)])
        let res = scheduler.start { Observable.merge(xs.asObservable(), ys.asObservable()) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(250)])
    }

    func testMergeErrorDisposesTheOthers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(240)])
        let ys = scheduler.createHotObservable([.error(230, TestError.boom, Int.self)])
        let res = scheduler.start { Observable.merge([xs.asObservable(), ys.asObservable()]) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(230, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testConcatSubscribesInTurn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start { xs.concat(ys) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 240)])
    }

    /// RxSwift's `testCompletable_FirstCompletableNotRetainedBeyondCompletion`: a completed source,
    /// and what its closures hold, goes once the next one is subscribed.
    func testConcatLetsGoOfACompletedSource() {
        final class Held {}
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createHotObservable([Recorded<Event<Int>>.completed(210)])
        var held: Held? = Held()
        weak let weakHeld = held
        let subscription = first.asObservable().do(onCompleted: { [held] in _ = held })
            .concat(Observable<Int>.never())
            .subscribe()
        held = nil
        scheduler.advanceTo(300)
        XCTAssertNil(weakHeld)
        subscription.dispose()
    }

    func testConcatErrorStopsAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError.boom)])
        let ys = scheduler.createColdObservable([.next(10, 2)])
        let res = scheduler.start { Observable.concat(xs.asObservable(), ys.asObservable()) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError.boom)])
        XCTAssertEqual(ys.subscriptions, [])

        let other = TestScheduler(initialClock: 0)
        let a = other.createColdObservable([.next(10, 1), .completed(20)])
        let b = other.createColdObservable([.next(10, 2), .completed(20)])
        let disposed = other.start(disposed: 225) { Observable.concat([a.asObservable(), b.asObservable()]) }
        XCTAssertEqual(disposed.events, [.next(210, 1)])
        XCTAssertEqual(b.subscriptions, [Subscription(220, 225)])
    }
}
