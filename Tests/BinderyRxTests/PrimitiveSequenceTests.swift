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
}

final class InfallibleTests: XCTestCase {
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
