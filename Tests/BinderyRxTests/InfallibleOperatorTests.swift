import BinderyRx
import BinderyRxTest
import XCTest

/// The operators of `Infallible` beyond the first set: each is the Observable operator's, in virtual time.
final class InfallibleOperatorTests: XCTestCase {
    private func infallible(_ scheduler: TestScheduler, _ events: [Recorded<Event<Int>>]) -> Infallible<Int> {
        scheduler.createHotObservable(events).asInfallible(onErrorJustReturn: -1)
    }

    func testConcatWaitsForTheFirstToComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = infallible(scheduler, [.next(210, 1), .completed(220)])
        let ys = infallible(scheduler, [.next(215, 10), .next(230, 20), .completed(240)])
        XCTAssertEqual(scheduler.start { xs.concat(ys) }.events, [.next(210, 1), .next(230, 20), .completed(240)])
    }

    func testStaticConcatAndConcatMap() {
        var elements: [Int] = []
        _ = Infallible.concat([Infallible.just(1), .of(2, 3)])
            .concatMap { Infallible.of($0, $0 * 10) }
            .subscribe(onNext: { elements.append($0) })
        XCTAssertEqual(elements, [1, 10, 2, 20, 3, 30])
    }

    func testMergeInterleaves() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = infallible(scheduler, [.next(210, 1), .next(230, 3), .completed(240)])
        let ys = infallible(scheduler, [.next(220, 2), .completed(250)])
        XCTAssertEqual(scheduler.start { Infallible.merge(xs, ys) }.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
    }

    func testWithLatestFromDropsElementsBeforeTheSecondHasOne() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = infallible(scheduler, [.next(210, 1), .next(230, 2), .next(250, 3)])
        let ys = infallible(scheduler, [.next(220, 10), .next(240, 20)])
        XCTAssertEqual(scheduler.start { xs.withLatestFrom(ys) { $0 + $1 } }.events, [.next(230, 12), .next(250, 23)])
    }

    func testWithUnretainedCompletesOnceTheObjectIsGone() {
        final class Owner {}
        let scheduler = TestScheduler(initialClock: 0)
        let xs = infallible(scheduler, [.next(210, 1), .next(230, 2)])
        var owner: Owner? = Owner()
        scheduler.scheduleAt(220) { owner = nil }
        XCTAssertEqual(scheduler.start { xs.withUnretained(owner!).map { $0.1 } }.events, [.next(210, 1), .completed(230)])
    }

    func testDoRunsItsSideEffectsAroundTheEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = infallible(scheduler, [.next(210, 1), .completed(220)])
        var log: [String] = []
        _ = scheduler.start {
            xs.do(onNext: { log.append("next \($0)") }, afterNext: { log.append("after \($0)") }, onCompleted: { log.append("completed") },
                  onSubscribe: { log.append("subscribe") }, onDispose: { log.append("dispose") })
        }
        XCTAssertEqual(log, ["subscribe", "next 1", "after 1", "completed", "dispose"])
    }

    func testDebugPassesEventsThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = infallible(scheduler, [.next(210, 1), .completed(220)])
        XCTAssertEqual(scheduler.start { xs.debug("infallible") }.events, [.next(210, 1), .completed(220)])
    }

    func testCreateTakesAnInfallibleObserverAndItsEventsConvert() {
        let send: (Infallible<Int>.InfallibleObserver) -> Void = { observer in
            observer(.next(1))
            observer(.completed)
        }
        var events: [Event<Int>] = []
        _ = Infallible<Int>.create { observer in
            send(observer)
            return Disposables.create()
        }
        .subscribe({ events.append($0.event) })
        XCTAssertEqual(events, [.next(1), .completed])
    }
}
