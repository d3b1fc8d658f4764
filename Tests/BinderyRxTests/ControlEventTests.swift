import BinderyRx
import BinderyRxTest
import XCTest

/// `ControlEvent` is subscribed on the sharing scheduler, which the tests mock with a `TestScheduler`.
final class ControlEventTests: XCTestCase {
    func testSubscribesAndDisposesOnTheSharingScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(200, 0), .next(210, 1), .next(220, 2)])
        var event: ControlEvent<Int>!
        SharingScheduler.mock(scheduler: scheduler) { event = ControlEvent(events: xs) }
        let res = scheduler.start(disposed: 215) { event.asObservable() }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 216)])
    }

    func testAsDriverReplaysAndAsSignalDoesNot() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        var driver: Driver<Int>!
        var signal: Signal<Int>!
        SharingScheduler.mock(scheduler: scheduler) {
            let event = ControlEvent(events: xs)
            driver = event.asDriver()
            signal = event.asSignal()
        }
        let driven = scheduler.createObserver(Int.self)
        let lateDriven = scheduler.createObserver(Int.self)
        let emitted = scheduler.createObserver(Int.self)
        let lateEmitted = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            _ = driver.drive(driven)
            _ = signal.emit(to: emitted)
        }
        scheduler.scheduleAt(220) {
            _ = driver.drive(lateDriven)
            _ = signal.emit(to: lateEmitted)
        }
        scheduler.start()
        XCTAssertEqual(driven.events, [.next(211, 1), .next(231, 2)])
        XCTAssertEqual(lateDriven.events, [.next(220, 1), .next(231, 2)])
        XCTAssertEqual(emitted.events, [.next(211, 1), .next(231, 2)])
        XCTAssertEqual(lateEmitted.events, [.next(231, 2)])
    }

    func testAnErrorEndsTheDriver() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
        var driver: Driver<Int>!
        SharingScheduler.mock(scheduler: scheduler) { driver = ControlEvent(events: xs).asDriver() }
        // `Driver.empty()` is itself delivered on the sharing scheduler: one tick more, as in RxCocoa.
        XCTAssertEqual(scheduler.start { driver }.events, [.next(211, 1), .completed(222)])
    }

    func testAPortedInputTakesAControlEvent() {
        struct Input { let tap: ControlEvent<Void> }
        let scheduler = TestScheduler(initialClock: 0)
        let taps = scheduler.createHotObservable([.next(210, ()), .next(220, ())])
        var input: Input!
        SharingScheduler.mock(scheduler: scheduler) { input = Input(tap: ControlEvent(events: taps)) }
        let count = scheduler.start { input.tap.scan(0) { n, _ in n + 1 } }
        XCTAssertEqual(count.events, [.next(210, 1), .next(220, 2)])
    }
}
