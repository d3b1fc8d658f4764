import BinderyRx
import BinderyRxTest
import XCTest

final class TakeLastTests: XCTestCase {
    func testEmitsTheLastElementsOnCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        XCTAssertEqual(scheduler.start { xs.takeLast(2) }.events, [.next(240, 2), .next(240, 3), .completed(240)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
        XCTAssertEqual(other.start { ys.takeLast(2) }.events, [.error(220, TestError.boom)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Observable.of(1, 2).takeLast(0) }.events, [.completed(200)])
    }
}

final class SingleOperatorTests: XCTestCase {
    func testPassesTheOnlyElementAndFailsOtherwise() {
        let scheduler = TestScheduler(initialClock: 0)
        let one = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        XCTAssertEqual(scheduler.start { one.single() }.events, [.next(210, 1), .completed(220)])

        let other = TestScheduler(initialClock: 0)
        let two = other.createHotObservable([.next(210, 1), .next(215, 2), .completed(220)])
        XCTAssertEqual(other.start { two.single() }.events, [.next(210, 1), .error(215, RxError.moreThanOneElement)])
        XCTAssertEqual(two.subscriptions, [Subscription(200, 215)])

        XCTAssertEqual(TestScheduler(initialClock: 0).start { Observable<Int>.empty().single() }.events, [.error(200, RxError.noElements)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Observable.of(1, 2, 3).single { $0 == 2 } }.events, [.next(200, 2), .completed(200)])
    }
}

final class ElementAtTests: XCTestCase {
    func testEmitsTheElementAtTheIndexOrFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        XCTAssertEqual(scheduler.start { xs.element(at: 1) }.events, [.next(220, 2), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let other = TestScheduler(initialClock: 0)
        let short = other.createHotObservable([.next(210, 1), .completed(220)])
        XCTAssertEqual(other.start { short.element(at: 3) }.events, [.error(220, RxError.argumentOutOfRange)])
    }
}

final class AsyncSubjectTests: XCTestCase {
    func testDeliversTheLastElementOnCompletionAlsoToLateSubscribers() {
        let subject = AsyncSubject<Int>()
        var early: [String] = []
        _ = subject.subscribe(onNext: { early.append("\($0)") }, onCompleted: { early.append("completed") })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(early, [])
        subject.onCompleted()
        XCTAssertEqual(early, ["2", "completed"])
        var late: [String] = []
        _ = subject.subscribe(onNext: { late.append("\($0)") }, onCompleted: { late.append("completed") })
        XCTAssertEqual(late, ["2", "completed"])
    }

    func testAnErrorIsDeliveredAlone() {
        let subject = AsyncSubject<Int>()
        var log: [String] = []
        _ = subject.subscribe(onNext: { log.append("\($0)") }, onError: { _ in log.append("error") })
        subject.onNext(1)
        subject.onError(TestError.boom)
        _ = subject.subscribe(onNext: { log.append("\($0)") }, onError: { _ in log.append("late error") })
        XCTAssertEqual(log, ["error", "late error"])
    }
}

final class BinderTests: XCTestCase {
    private final class Label { var text = "" }

    func testBindsOnTheSchedulerWhileTheTargetLives() {
        let scheduler = TestScheduler(initialClock: 0)
        var label: Label? = Label()
        let binder = Binder(label!, scheduler: scheduler) { label, text in label.text = text }
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(230, "b"), .completed(240)])
        scheduler.scheduleAt(200) { _ = xs.bind(to: binder) }
        scheduler.advanceTo(215)
        XCTAssertEqual(label?.text, "a", "delivered one tick after the element, on the scheduler")
        weak let gone = label
        label = nil
        scheduler.start()
        XCTAssertNil(gone, "the binder holds its target weakly")
    }
}
