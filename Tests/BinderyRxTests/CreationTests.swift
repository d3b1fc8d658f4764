import BinderyRx
import BinderyRxTest
import XCTest

final class CreationTests: XCTestCase {
    func testJustOfFromEmptyErrorNever() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.start { Observable.just(1) }.events, [.next(200, 1), .completed(200)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Observable.of(1, 2) }.events, [.next(200, 1), .next(200, 2), .completed(200)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Observable.from([3]) }.events, [.next(200, 3), .completed(200)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Observable<Int>.empty() }.events, [.completed(200)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Observable<Int>.error(TestError.boom) }.events, [.error(200, TestError.boom)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Observable<Int>.never() }.events, [])
    }

    /// As in RxSwift, each event is a scheduled action of its own: one tick each on a virtual clock.
    func testJustOnSchedulerDeliversEachEventInItsOwnAction() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.just(1, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .completed(202)])
    }

    func testOfAndFromOnSchedulerDeliverEachEventInItsOwnAction() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(3, 1, 2, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 3), .next(202, 1), .next(203, 2), .completed(204)])

        let other = TestScheduler(initialClock: 0)
        let disposed = other.start(disposed: 202) { Observable.from(AnySequence([3, 1, 2]), scheduler: other) }
        XCTAssertEqual(disposed.events, [.next(201, 3)], "disposing stops the elements not yet scheduled")
    }

    func testDeferredCreatesPerSubscriptionAndTurnsThrowsIntoErrors() {
        var made = 0
        let deferred = Observable<Int>.deferred {
            made += 1
            return .just(made)
        }
        var values: [Int] = []
        _ = deferred.subscribe(onNext: { values.append($0) })
        _ = deferred.subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, [1, 2])

        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.deferred { throw TestError.boom } }
        XCTAssertEqual(res.events, [.error(200, TestError.boom)])
    }

    func testCreateEnforcesTheGrammar() {
        let scheduler = TestScheduler(initialClock: 0)
        var disposed = false
        let res = scheduler.start {
            Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onCompleted()
                observer.onNext(2)
                observer.onError(TestError.boom)
                return Disposables.create { disposed = true }
            }
        }
        XCTAssertEqual(res.events, [.next(200, 1), .completed(200)])
        XCTAssertTrue(disposed)
    }

    func testUsingDisposesTheResourceWithTheSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(100, 2)])
        let resource = BooleanDisposable()
        let res = scheduler.start(disposed: 250) { Observable.using({ resource }, observableFactory: { _ in xs.asObservable() }) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertTrue(resource.isDisposed)
    }

    func testUsingFactoryErrorDisposesTheResource() {
        let resource = BooleanDisposable()
        var error: Error?
        _ = Observable<Int>.using({ resource }, observableFactory: { _ in throw TestError.boom }).subscribe(onError: { error = $0 })
        XCTAssertEqual(error as? TestError, .boom)
        XCTAssertTrue(resource.isDisposed)
    }

    func testMaterializeAndDematerialize() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
        let res = scheduler.start { xs.materialize() }
        XCTAssertEqual(res.events, [.next(210, .next(1)), .next(220, .error(TestError.boom)), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let events = scheduler2.createHotObservable([.next(210, Event<Int>.next(1)), .next(220, Event<Int>.completed), .next(230, Event<Int>.next(2))])
        let back = scheduler2.start { events.dematerialize() }
        XCTAssertEqual(back.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(events.subscriptions, [Subscription(200, 220)])
    }

    func testReduce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.reduce(10, accumulator: +) { "\($0)" } }
        XCTAssertEqual(res.events, [.next(230, "13"), .completed(230)])

        let failing = TestScheduler(initialClock: 0)
        let ys = failing.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
        XCTAssertEqual(failing.start { ys.reduce(0, accumulator: +) }.events, [.error(220, TestError.boom)])
    }

    func testDebugPassesEventsThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let res = scheduler.start { xs.debug("xs") }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }
}
