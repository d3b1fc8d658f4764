import BinderyRx
import BinderyRxTest
import XCTest

final class SingleTests: XCTestCase {
    func testCreateDeliversOnlyTheFirstEvent() {
        var results: [String] = []
        var disposed = false
        let single = Single<Int>.create { observer in
            observer(.success(1))
            observer(.success(2))
            observer(.failure(TestError.boom))
            return Disposables.create { disposed = true }
        }
        _ = single.subscribe(onSuccess: { results.append("success \($0)") }, onFailure: { _ in results.append("failure") }, onDisposed: { results.append("disposed") })
        XCTAssertEqual(results, ["success 1", "disposed"])
        XCTAssertTrue(disposed)
    }

    func testJustErrorNeverDeferred() {
        var value: Int?
        _ = Single.just(1).map { $0 + 1 }.subscribe(onSuccess: { value = $0 })
        XCTAssertEqual(value, 2)
        var error: Error?
        _ = Single<Int>.error(TestError.boom).subscribe(onFailure: { error = $0 })
        XCTAssertEqual(error as? TestError, .boom)
        var made = 0
        let deferred = Single<Int>.deferred {
            made += 1
            return .just(made)
        }
        _ = deferred.subscribe { _ in }
        _ = deferred.subscribe { _ in }
        XCTAssertEqual(made, 2)
        var event: SingleEvent<Int>?
        _ = Single<Int>.never().subscribe { event = $0 }
        XCTAssertNil(event)
    }

    func testFlatMapInVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let ys = scheduler.createColdObservable([.next(5, 3), .completed(5)])
        let res = scheduler.start { xs.asSingle().flatMap { x in ys.asSingle().map { x * $0 } } }
        XCTAssertEqual(res.events, [.next(215, 6), .completed(215)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 215)])
    }

    func testAsSingleErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([.completed(210, Int.self)])
        XCTAssertEqual(scheduler.start { empty.asSingle() }.events, [.error(210, RxError.noElements)])
        let other = TestScheduler(initialClock: 0)
        let two = other.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(other.start { two.asSingle() }.events, [.error(220, RxError.moreThanOneElement)])
        XCTAssertEqual(two.subscriptions, [Subscription(200, 220)])
    }

    func testToArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(scheduler.start { xs.toArray() }.events, [.next(230, [1, 2]), .completed(230)])
        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
        XCTAssertEqual(other.start { ys.toArray() }.events, [.error(220, TestError.boom)])
    }

    func testCatchAndReturnAndAsMaybe() {
        var value: Int?
        _ = Single<Int>.error(TestError.boom).catchAndReturn(5).subscribe(onSuccess: { value = $0 })
        XCTAssertEqual(value, 5)
        var maybe: Int?
        _ = Single.just(3).asMaybe().subscribe(onSuccess: { maybe = $0 })
        XCTAssertEqual(maybe, 3)
    }

    func testZipOfSinglesByArityAndCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(10)]).asSingle()
        let b = scheduler.createColdObservable([.next(20, 2), .completed(20)]).asSingle()
        XCTAssertEqual(scheduler.start { Single.zip(a, b) { $0 + $1 } }.events, [.next(220, 3), .completed(220)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { (Single.zip(Single.just(1), Single.just("a")) as Single<(Int, String)>).map { "\($0)\($1)" } }.events, [.next(200, "1a"), .completed(200)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Single.zip([Single.just(1), Single.just(2)]) { $0.reduce(0, +) } }.events, [.next(200, 3), .completed(200)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Single.zip([Single<Int>]()) }.events, [.next(200, []), .completed(200)])
    }

    func testTimerUsingFilterAndTimeoutToOther() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.start { Single<Int>.timer(.seconds(2), scheduler: scheduler) }.events, [.next(202, 0), .completed(202)])

        let resource = BooleanDisposable()
        let using = TestScheduler(initialClock: 0).start {
            Single.using({ resource }, primitiveSequenceFactory: { _ in Single.just(1) })
        }
        XCTAssertEqual(using.events, [.next(200, 1), .completed(200)])
        XCTAssertTrue(resource.isDisposed)

        XCTAssertEqual(TestScheduler(initialClock: 0).start { Single.just(1).filter { $0 > 1 } }.events, [.completed(200)])

        let other = TestScheduler(initialClock: 0)
        let late = other.createColdObservable([.next(50, 1), .completed(50)]).asSingle()
        let fallback = other.createColdObservable([.next(5, 2), .completed(5)]).asSingle()
        XCTAssertEqual(other.start { late.timeout(.seconds(10), other: fallback, scheduler: other) }.events, [.next(215, 2), .completed(215)])
    }

    func testRetryWhenResubscribesOnEachTrigger() {
        var attempts = 0
        let flaky = Single<Int>.deferred {
            attempts += 1
            return attempts < 3 ? .error(TestError.boom) : .just(attempts)
        }
        var events: [SingleEvent<Int>] = []
        _ = flaky.retry { (errors: Observable<TestError>) in errors }.subscribe { events.append($0) }
        XCTAssertEqual(events, [.success(3)])
        XCTAssertEqual(attempts, 3)
    }
}

final class MaybeTests: XCTestCase {
    func testCreateAndSubscribe() {
        var log: [String] = []
        _ = Maybe<Int>.create { observer in
            observer(.completed)
            observer(.success(1))
            return Disposables.create()
        }.subscribe(onSuccess: { log.append("success \($0)") }, onCompleted: { log.append("completed") })
        XCTAssertEqual(log, ["completed"])
        _ = Maybe.just(2).map { $0 * 2 }.subscribe(onSuccess: { log.append("success \($0)") })
        XCTAssertEqual(log, ["completed", "success 4"])
    }

    func testAsMaybe() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([.completed(210, Int.self)])
        XCTAssertEqual(scheduler.start { empty.asMaybe() }.events, [.completed(210)])
        let other = TestScheduler(initialClock: 0)
        let one = other.createHotObservable([.next(210, 1), .completed(220)])
        XCTAssertEqual(other.start { one.asMaybe() }.events, [.next(220, 1), .completed(220)])
    }

    func testIfEmptyFilterCatchAndReturnDoAndZip() {
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Maybe<Int>.empty().ifEmpty(switchTo: Maybe.just(2)) }.events, [.next(200, 2), .completed(200)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Maybe<Int>.empty().ifEmpty(switchTo: Single.just(3)) }.events, [.next(200, 3), .completed(200)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Maybe.just(1).filter { $0 > 1 } }.events, [.completed(200)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Maybe<Int>.error(TestError.boom).catchAndReturn(4) }.events, [.next(200, 4), .completed(200)])
        var log: [String] = []
        _ = Maybe.just(1).do(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") }).subscribe()
        XCTAssertEqual(log, ["next 1", "completed"])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Maybe.zip(Maybe.just(1), Maybe<Int>.empty()) { $0 + $1 } }.events, [.completed(200)])
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.start { Maybe.just(5, scheduler: scheduler) }.events, [.next(201, 5), .completed(202)])
    }

    func testEventListsCompareWithRxTestsAssertions() {
        var events: [MaybeEvent<Int>] = []
        _ = Maybe.just(1).subscribe { events.append($0) }
        _ = Maybe<Int>.empty().subscribe { events.append($0) }
        _ = Maybe<Int>.error(TestError.boom).subscribe { events.append($0) }
        XCTAssertEqual(events, [.success(1), .completed, .error(TestError.boom)])
    }
}

final class CompletableTests: XCTestCase {
    func testCreateAndSubscribe() {
        var log: [String] = []
        _ = Completable.create { observer in
            observer(.completed)
            observer(.error(TestError.boom))
            return Disposables.create()
        }.subscribe(onCompleted: { log.append("completed") }, onError: { _ in log.append("error") })
        XCTAssertEqual(log, ["completed"])
    }

    func testIgnoreElementsAsCompletableAndAndThen() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createColdObservable([.next(5, "done"), .completed(5)])
        let res = scheduler.start { xs.ignoreElements().asCompletable().andThen(ys.asSingle()) }
        XCTAssertEqual(res.events, [.next(225, "done"), .completed(225)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testIgnoreElementsKeepsErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
        let res = scheduler.start { xs.ignoreElements() }
        XCTAssertEqual(res.events, [.error(220, TestError.boom)])
    }

    func testConcatZipAndDo() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.completed(10, Never.self)]).asCompletable()
        let second = scheduler.createColdObservable([.completed(20, Never.self)]).asCompletable()
        XCTAssertEqual(scheduler.start { first.concat(second) }.events, [.completed(230)])
        let zipScheduler = TestScheduler(initialClock: 0)
        let a = zipScheduler.createColdObservable([.completed(10, Never.self)]).asCompletable()
        let b = zipScheduler.createColdObservable([.completed(20, Never.self)]).asCompletable()
        XCTAssertEqual(zipScheduler.start { Completable.zip(a, b) }.events, [.completed(220)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Completable.concat(AnySequence([Completable.empty()])) }.events, [.completed(200)])
        var events: [CompletableEvent] = []
        var log: [String] = []
        _ = Completable.empty().do(onCompleted: { log.append("completed") }).subscribe { events.append($0) }
        _ = Completable.error(TestError.boom).subscribe { events.append($0) }
        XCTAssertEqual(log, ["completed"])
        XCTAssertEqual(events, [.completed, .error(TestError.boom)])
    }
}

final class InfallibleTests: XCTestCase {
    func testAsDriverHopsOntoTheSharingScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
        var driver: Driver<Int>!
        SharingScheduler.mock(scheduler: scheduler) { driver = xs.asInfallible(onErrorJustReturn: 0).asDriver() }
        // Each event hops on its own, as through RxSwift's observe(on:): the completion a tick after the replacement.
        XCTAssertEqual(scheduler.start { driver }.events, [.next(211, 1), .next(221, 0), .completed(222)])
    }

    func testAsInfallibleReplacesErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).map { $0 * 10 } }
        XCTAssertEqual(res.events, [.next(210, 10), .next(220, 0), .completed(220)])
    }

    func testCreateAndSubscribe() {
        var log: [String] = []
        _ = Infallible<Int>.create { observer in
            observer(.next(1))
            observer(.completed)
            return Disposables.create()
        }
        .filter { $0 > 0 }
        .subscribe(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
        XCTAssertEqual(log, ["next 1", "completed", "disposed"])
        var fallback: [Int] = []
        _ = Observable<Int>.error(TestError.boom).asInfallible(onErrorFallbackTo: .of(7, 8)).subscribe(onNext: { fallback.append($0) })
        XCTAssertEqual(fallback, [7, 8])
    }
}
