import BinderyRx
import BinderyRxTest
import XCTest

/// `groupBy`, `amb`, `generate`, `withUnretained` and `Infallible.combineLatest`, in virtual time.
final class GroupByAmbGenerateTests: XCTestCase {
    func testGroupBySendsEachElementToItsKeysGroupAndEndsThemAll() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        var groups: [Bool: TestableObserver<Int>] = [:]
        let keys = scheduler.start {
            xs.groupBy { $0.isMultiple(of: 2) }.map { group -> Bool in
                let observer = scheduler.createObserver(Int.self)
                groups[group.key] = observer
                _ = group.subscribe(observer)
                return group.key
            }
        }
        XCTAssertEqual(keys.events, [.next(210, false), .next(220, true), .completed(250)])
        XCTAssertEqual(groups[false]?.events, [.next(210, 1), .next(230, 3), .completed(250)])
        XCTAssertEqual(groups[true]?.events, [.next(220, 2), .next(240, 4), .completed(250)])
    }

    func testGroupByKeepsTheSourceWhileAGroupIsSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 3), .next(230, 5)])
        let group = scheduler.createObserver(Int.self)
        var groupSubscription: Disposable?
        let outer = xs.groupBy { $0 % 2 }.subscribe(onNext: { groupSubscription = $0.subscribe(group) })
        scheduler.scheduleAt(215) { outer.dispose() }
        scheduler.scheduleAt(225) { groupSubscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(group.events, [.next(210, 1), .next(220, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(0, 225)])
    }

    func testGroupByKeySelectorErrorEndsGroupsAndOuter() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, -1)])
        let group = scheduler.createObserver(Int.self)
        let res = scheduler.start {
            xs.groupBy { value -> Int in
                if value < 0 { throw TestError.boom }
                return value
            }.do(onNext: { _ = $0.subscribe(group) }).map(\.key)
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError.boom)])
        XCTAssertEqual(group.events, [.next(210, 1), .error(220, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testAmbMirrorsTheFirstToSendAndDisposesTheOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createHotObservable([.next(230, 1), .completed(250)])
        let second = scheduler.createHotObservable([.next(220, 2), .next(240, 3), .completed(260)])
        let third = scheduler.createHotObservable([Recorded<Event<Int>>.completed(225)])
        let res = scheduler.start { Observable.amb([first.asObservable(), second.asObservable(), third.asObservable()]) }
        XCTAssertEqual(res.events, [.next(220, 2), .next(240, 3), .completed(260)])
        XCTAssertEqual(first.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(second.subscriptions, [Subscription(200, 260)])
        XCTAssertEqual(third.subscriptions, [Subscription(200, 220)])
    }

    func testAmbTakesAnErrorFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createHotObservable([Recorded<Event<Int>>.error(210, TestError.boom)])
        let second = scheduler.createHotObservable([.next(220, 2)])
        let res = scheduler.start { first.amb(second) }
        XCTAssertEqual(res.events, [.error(210, TestError.boom)])
        XCTAssertEqual(second.subscriptions, [Subscription(200, 210)])
    }

    func testGenerateTakesOneScheduledStepPerElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 0, condition: { $0 < 3 }, scheduler: scheduler, iterate: { $0 + 1 })
        }
        XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1), .next(203, 2), .completed(204)])
    }

    func testGenerateForwardsErrorsOfConditionAndIterate() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 0, condition: { _ in true }, scheduler: scheduler, iterate: { value -> Int in
                if value == 1 { throw TestError.boom }
                return value + 1
            })
        }
        XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1), .error(203, TestError.boom)])
    }

    /// Subscribed from outside any trampoline, the steps on the current thread start once the
    /// subscription is in place, so `take` can stop them (RxSwift's `testGenerate_take`).
    func testTakeStopsAGeneratorOnTheCurrentThread() {
        var iterations = 0
        var elements: [Int] = []
        _ = Observable.generate(initialState: 0, condition: { $0 < 1_000 }, iterate: { value -> Int in
            iterations += 1
            return value + 1
        })
        .take(4)
        .subscribe(onNext: { elements.append($0) })
        XCTAssertEqual(elements, [0, 1, 2, 3])
        XCTAssertEqual(iterations, 3)
    }

    func testWithUnretainedCompletesOnceTheObjectIsGone() {
        final class Owner {}
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        var owner: Owner? = Owner()
        let identity = ObjectIdentifier(owner!)
        scheduler.scheduleAt(220) { owner = nil }
        let res = scheduler.start { xs.withUnretained(owner!).map { ObjectIdentifier($0.0) == identity ? $0.1 : -1 } }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testInfallibleCombineLatest() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3)]).asInfallible(onErrorJustReturn: 0)
        let ys = scheduler.createHotObservable([.next(220, 10)]).asInfallible(onErrorJustReturn: 0)
        let res = scheduler.start { Infallible.combineLatest(xs, ys).map { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 11), .next(230, 13)])
    }

    func testInfallibleZipPairsByIndex() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3)]).asInfallible(onErrorJustReturn: 0)
        let ys = scheduler.createHotObservable([.next(220, 10), .next(240, 20)]).asInfallible(onErrorJustReturn: 0)
        let res = scheduler.start { Infallible.zip(xs, ys).map { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 11), .next(240, 23)])
    }
}
