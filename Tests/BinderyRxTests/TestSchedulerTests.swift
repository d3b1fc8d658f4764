import BinderyRx
import BinderyRxTest
import XCTest

/// The virtual-time rules of RxTest that tests written for it rely on.
final class TestSchedulerTests: XCTestCase {
    func testScheduleNowRunsOneTickLater() {
        let scheduler = TestScheduler(initialClock: 0)
        var ranAt: TestTime?
        scheduler.scheduleAt(100) {
            _ = scheduler.schedule(()) { _ in
                ranAt = scheduler.clock
                return Disposables.create()
            }
        }
        scheduler.start()
        XCTAssertEqual(ranAt, 101)
    }

    func testWithoutProcessingDelayNowMeansNow() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        var ranAt: TestTime?
        scheduler.scheduleAt(100) {
            scheduler.scheduleAt(50) { ranAt = scheduler.clock }
        }
        scheduler.start()
        XCTAssertEqual(ranAt, 100)
    }

    /// RxTest places `scheduleAt` with `scheduleAbsoluteVirtual`: no processing delay, and the clock
    /// never goes back; only what operators schedule relative to now lands a tick later.
    func testScheduleAtNowOrInThePastRunsNowButScheduleRunsOneTickLater() {
        let scheduler = TestScheduler(initialClock: 0)
        var times: [String] = []
        scheduler.scheduleAt(100) {
            _ = scheduler.schedule(()) { _ in
                times.append("schedule@\(scheduler.clock)")
                return Disposables.create()
            }
            scheduler.scheduleAt(50) { times.append("past@\(scheduler.clock)") }
            scheduler.scheduleAt(100) { times.append("now@\(scheduler.clock)") }
        }
        scheduler.start()
        XCTAssertEqual(times, ["past@100", "now@100", "schedule@101"])
    }

    func testStartAtTimeZeroSubscribesAtZero() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(1, 1)])
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 100) { xs }
        XCTAssertEqual(res.events, [.next(1, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(0, 100)])
    }

    func testTiesRunInTheOrderScheduled() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [String] = []
        scheduler.scheduleAt(10) { log.append("a") }
        scheduler.scheduleAt(5) { log.append("first") }
        scheduler.scheduleAt(10) { log.append("b") }
        scheduler.start()
        XCTAssertEqual(log, ["first", "a", "b"])
    }

    func testColdObservableOffsetsAreRelativeToEachSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(0, 1), .next(10, 2), .completed(20)])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(first) }
        scheduler.scheduleAt(300) { _ = xs.subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(200, 1), .next(210, 2), .completed(220)])
        XCTAssertEqual(second.events, [.next(300, 1), .next(310, 2), .completed(320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200), Subscription(300)])
        XCTAssertEqual(xs.recordedEvents, Recorded.events(.next(0, 1), .next(10, 2), .completed(20)))
    }

    func testHotObservableRecordsSubscriptionsWithTheClock() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(250, 2), .next(350, 3)])
        let observer = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) { subscription = xs.subscribe(observer) }
        scheduler.scheduleAt(300) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(250, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testStartUsesTheDefaultTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        var createdAt: TestTime?
        let xs = scheduler.createHotObservable([.next(150, 1), .next(500, 2), .next(1000, 3), .next(1001, 4)])
        let res = scheduler.start { () -> Observable<Int> in
            createdAt = scheduler.clock
            return xs.asObservable()
        }
        XCTAssertEqual(createdAt, TestScheduler.Defaults.created)
        // The event at 1000 was scheduled before the disposal at 1000, so it still arrives.
        XCTAssertEqual(res.events, [.next(500, 2), .next(1000, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(TestScheduler.Defaults.subscribed, TestScheduler.Defaults.disposed)])
    }

    func testStartWithExplicitTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 1), .next(350, 2)])
        let res = scheduler.start(created: 50, subscribed: 300, disposed: 400) { xs }
        XCTAssertEqual(res.events, [.next(350, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(300, 400)])
    }

    func testAdvanceToRunsDueWorkAndMovesTheClock() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [TestTime] = []
        scheduler.scheduleAt(10) { log.append(scheduler.clock) }
        scheduler.scheduleAt(30) { log.append(scheduler.clock) }
        scheduler.advanceTo(20)
        XCTAssertEqual(log, [10])
        XCTAssertEqual(scheduler.clock, 20)
        scheduler.advanceTo(30)
        XCTAssertEqual(log, [10, 30])
        scheduler.sleep(5)
        XCTAssertEqual(scheduler.clock, 35)
    }

    func testResolutionAndNow() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
        var ranAt: TestTime?
        _ = scheduler.scheduleRelative((), dueTime: .seconds(1)) { _ in
            ranAt = scheduler.clock
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(ranAt, 10)
        XCTAssertEqual(scheduler.now.timeIntervalSince1970, 1.0, accuracy: 0.0001)
    }

    func testDisposingScheduledWorkCancelsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran = false
        scheduler.scheduleAt(10) { ran = true }.dispose()
        scheduler.start()
        XCTAssertFalse(ran)
    }

    func testEventsCompareErrorsByTypeAndDescription() {
        XCTAssertEqual(Event<Int>.error(TestError.boom), .error(TestError.boom))
        XCTAssertNotEqual(Event<Int>.error(TestError.boom), .error(TestError.other))
        XCTAssertNotEqual(Event<Int>.next(1), .completed)
    }

    func testMaybeAndCompletableEventsCompareAsEventsDo() {
        XCTAssertEqual(MaybeEvent<Int>.success(1), .success(1))
        XCTAssertEqual(MaybeEvent<Int>.error(TestError.boom), .error(TestError.boom))
        XCTAssertNotEqual(MaybeEvent<Int>.success(1), .completed)
        XCTAssertEqual(CompletableEvent.completed, .completed)
        XCTAssertNotEqual(CompletableEvent.error(TestError.boom), .error(TestError.other))
    }

    func testRecordedElementsAreTheNextEventsElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        XCTAssertRecordedElements(scheduler.start { xs }.events, [1, 2])
    }

    /// RxTest's TestScheduler is a `VirtualTimeScheduler`: what it has from there, tests call.
    func testVirtualTimeSchedulingPlacesWorkExactly() {
        let scheduler = TestScheduler(initialClock: 0)
        var times: [String] = []
        _ = scheduler.scheduleAbsoluteVirtual("absolute", time: 100) { name in
            times.append("\(name)@\(scheduler.clock)")
            _ = scheduler.scheduleRelativeVirtual("relative", dueTime: 0) { name in
                times.append("\(name)@\(scheduler.clock)")
                return Disposables.create()
            }
            return Disposables.create()
        }
        let cancelled = scheduler.scheduleAbsoluteVirtual("cancelled", time: 50) { name in
            times.append(name)
            return Disposables.create()
        }
        cancelled.dispose()
        scheduler.start()
        XCTAssertEqual(times, ["absolute@100", "relative@100"])
        XCTAssertEqual(scheduler.adjustScheduledTime(100), 101)
        XCTAssertEqual(scheduler.adjustScheduledTime(150), 150)
    }

    func testDebugDescriptionShowsTheClockAndWhatIsDue() {
        let scheduler = TestScheduler(initialClock: 0)
        scheduler.scheduleAt(30) {}
        scheduler.scheduleAt(20) {}
        scheduler.advanceTo(10)
        XCTAssertEqual(scheduler.debugDescription, "TestScheduler(clock: 10, due: [20, 30])")
    }
}
