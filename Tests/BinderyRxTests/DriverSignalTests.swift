import BinderyRx
import BinderyRxTest
import XCTest

/// Driver and Signal observed on a mocked `TestScheduler`: as in RxCocoa, hopping
/// onto the sharing scheduler costs the one tick of simulated processing delay.
final class DriverSignalTests: XCTestCase {
    func testDriverNeverErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
        var driver: Driver<Int>!
        SharingScheduler.mock(scheduler: scheduler) { driver = xs.asDriver(onErrorJustReturn: -1) }
        let res = scheduler.start { driver }
        XCTAssertEqual(res.events, [.next(211, 1), .next(221, -1), .completed(221)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDriverReplaysTheLatestElementToLateSubscribers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        var driver: Driver<Int>!
        SharingScheduler.mock(scheduler: scheduler) { driver = xs.asDriver(onErrorJustReturn: 0).map { $0 * 10 } }
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = driver.drive(first) }
        scheduler.scheduleAt(220) { _ = driver.drive(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(211, 10), .next(231, 20)])
        XCTAssertEqual(second.events, [.next(220, 10), .next(231, 20)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200)])
    }

    func testSignalSharesWithoutReplay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        var signal: Signal<Int>!
        SharingScheduler.mock(scheduler: scheduler) { signal = xs.asSignal(onErrorJustReturn: 0) }
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = signal.emit(to: first) }
        scheduler.scheduleAt(220) { _ = signal.emit(to: second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(211, 1), .next(231, 2)])
        XCTAssertEqual(second.events, [.next(231, 2)])
    }

    func testDriverTimeOperatorsUseTheSharingScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(250, 3)])
        var driver: Driver<Int>!
        SharingScheduler.mock(scheduler: scheduler) {
            driver = xs.asDriver(onErrorJustReturn: 0).debounce(.seconds(10))
        }
        XCTAssertEqual(scheduler.start { driver }.events, [.next(226, 2), .next(261, 3)])
    }

    func testDriverFlatMapFamilyAndStartWith() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        // The inner drivers are made while the test runs, so the mock must cover `start` too.
        SharingScheduler.mock(scheduler: scheduler) {
            let input = xs.asDriver(onErrorJustReturn: 0)
            let driver = input.flatMapLatest { value in Driver.just(value * 100) }.startWith(0)
            XCTAssertEqual(scheduler.start { driver }.events, [.next(200, 0), .next(212, 100), .next(222, 200)])
        }
    }

    func testDriverZipAndMerge() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let ys = scheduler.createHotObservable([.next(215, 10)])
        var zipped: Driver<Int>!
        var merged: Driver<Int>!
        SharingScheduler.mock(scheduler: scheduler) {
            let a = xs.asDriver(onErrorJustReturn: 0)
            let b = ys.asDriver(onErrorJustReturn: 0)
            zipped = Driver.zip(a, b) { $0 + $1 }
            merged = Driver.merge(a, b)
        }
        XCTAssertEqual(scheduler.start { zipped }.events, [.next(216, 11)])
        let mergeScheduler = TestScheduler(initialClock: 0)
        let c = mergeScheduler.createHotObservable([.next(210, 1)])
        let d = mergeScheduler.createHotObservable([.next(205, 2)])
        SharingScheduler.mock(scheduler: mergeScheduler) {
            merged = Driver.merge(c.asDriver(onErrorJustReturn: 0), d.asDriver(onErrorJustReturn: 0))
        }
        XCTAssertEqual(mergeScheduler.start { merged }.events, [.next(206, 2), .next(211, 1)])
    }

    func testBehaviorRelayAsDriver() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = BehaviorRelay(value: "a")
        var driver: Driver<String>!
        SharingScheduler.mock(scheduler: scheduler) { driver = relay.asDriver() }
        scheduler.scheduleAt(300) { relay.accept("b") }
        XCTAssertEqual(scheduler.start { driver }.events, [.next(201, "a"), .next(301, "b")])
    }

    func testSharingSchedulerDefaultsAndMockRestores() {
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
        let test = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: test) { XCTAssertTrue(SharingScheduler.make() as AnyObject === test) }
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
        let session = SerialScheduler(label: "test.session")
        session.sync { XCTAssertTrue(SharingScheduler.make() as AnyObject === session) }
    }
}
