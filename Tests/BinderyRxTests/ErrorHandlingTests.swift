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

/// `Observable.catch(sequence:)`: each source in turn until one completes.
final class CatchSequenceTests: XCTestCase {
    func testGoesOnWithTheNextSourceAfterAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
        let xs2 = scheduler.createHotObservable([.next(215, 9), .next(230, 2), .completed(240)])
        let xs3 = scheduler.createHotObservable([.next(250, 3)])
        let res = scheduler.start { Observable.catch(sequence: [xs1, xs2, xs3].map { $0.asObservable() }) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .completed(240)])
        XCTAssertEqual(xs1.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(xs2.subscriptions, [Subscription(220, 240)])
        XCTAssertEqual(xs3.subscriptions, [])
    }

    func testEndsWithTheLastErrorOrCompletesWhenEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([.error(210, TestError.boom, Int.self)])
        let xs2 = scheduler.createHotObservable([.error(220, TestError.other, Int.self)])
        let res = scheduler.start { Observable.catch(sequence: [xs1.asObservable(), xs2.asObservable()]) }
        XCTAssertEqual(res.events, [.error(220, TestError.other)])

        let empty = TestScheduler(initialClock: 0).start { Observable<Int>.catch(sequence: [Observable<Int>]()) }
        XCTAssertEqual(empty.events, [.completed(200)])
    }
}

/// `retry(when:)`: the errors go to a trigger sequence, whose elements resubscribe and whose end ends it.
final class RetryWhenTests: XCTestCase {
    func testResubscribesOnEachTriggerElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError.boom)])
        let res = scheduler.start(disposed: 275) { xs.retry { (errors: Observable<TestError>) in errors.delay(.seconds(5), scheduler: scheduler) } }
        XCTAssertEqual(res.events, [.next(210, 1), .next(235, 1), .next(260, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(225, 245), Subscription(250, 270)])
    }

    func testTheTriggersEndEndsItAndOtherErrorsPassThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError.boom)])
        let res = scheduler.start { xs.retry { errors in errors.take(2) } }
        // The trigger is listened to from an error until the resubscription, as in RxSwift:
        // `take(2)` ends right after its second element resubscribed, so the end is heard
        // at the next error.
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1), .next(250, 1), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createColdObservable([.error(10, TestError.boom, Int.self)])
        let passed = other.start { ys.retry { (errors: Observable<RxError>) in errors } }
        XCTAssertEqual(passed.events, [.error(210, TestError.boom)], "only errors of the handler's type are retried")
    }

    /// RxSwift's `testRetryWhen_Never`: a handler that ends before any error does not end the sequence.
    func testAHandlerEndingBeforeAnyErrorIsHeardOnlyAtAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 1), .completed(250)])
        let handler = scheduler.createHotObservable([Recorded<Event<Int>>.completed(210)])
        let res = scheduler.start { xs.retry { (_: Observable<Error>) in handler } }
        XCTAssertEqual(res.events, [.next(220, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testASynchronousFailureRetriesWithoutRecursion() {
        var attempts = 0
        let failing = Observable<Int>.deferred {
            attempts += 1
            return attempts < 100_000 ? .error(TestError.boom) : .just(attempts)
        }
        var values: [Int] = []
        _ = failing.retry { errors in errors }.subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, [100_000])
    }
}

/// `ifEmpty`: a default element or another sequence when the source completes empty.
final class IfEmptyTests: XCTestCase {
    func testDefaultAndSwitchTo() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([.completed(210, Int.self)])
        XCTAssertEqual(scheduler.start { empty.ifEmpty(default: 7) }.events, [.next(210, 7), .completed(210)])

        let other = TestScheduler(initialClock: 0)
        let nonEmpty = other.createHotObservable([.next(210, 1), .completed(220)])
        XCTAssertEqual(other.start { nonEmpty.ifEmpty(default: 7) }.events, [.next(210, 1), .completed(220)])

        let third = TestScheduler(initialClock: 0)
        let xs = third.createHotObservable([.completed(210, Int.self)])
        let ys = third.createColdObservable([.next(5, 2), .completed(10)])
        XCTAssertEqual(third.start { xs.ifEmpty(switchTo: ys.asObservable()) }.events, [.next(215, 2), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 220)])
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
