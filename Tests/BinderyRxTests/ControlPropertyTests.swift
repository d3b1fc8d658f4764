import BinderyRx
import BinderyRxTest
import XCTest

/// `ControlProperty`: values subscribed on the sharing scheduler (mocked here with a
/// `TestScheduler`), what is sent to it going to its sink, as RxCocoa's.
final class ControlPropertyTests: XCTestCase {
    func testValuesAreSubscribedOnTheSharingScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let values = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2)])
        var property: ControlProperty<Int>!
        SharingScheduler.mock(scheduler: scheduler) {
            property = ControlProperty(values: values, valueSink: scheduler.createObserver(Int.self))
        }
        let res = scheduler.start(disposed: 215) { property.asObservable() }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(values.subscriptions, [Subscription(201, 216)])
    }

    func testChangedLeavesOutTheCurrentValue() {
        let scheduler = TestScheduler(initialClock: 0)
        // A cold source: the current value at once, as a control gives it, then the changes.
        let values = scheduler.createColdObservable([.next(0, "current"), .next(10, "typed"), .next(20, "more")])
        var property: ControlProperty<String>!
        var changed: ControlEvent<String>!
        SharingScheduler.mock(scheduler: scheduler) {
            property = ControlProperty(values: values, valueSink: scheduler.createObserver(String.self))
            changed = property.changed
        }
        let all = scheduler.createObserver(String.self)
        let changes = scheduler.createObserver(String.self)
        scheduler.scheduleAt(200) {
            _ = property.subscribe(all)
            _ = changed.subscribe(changes)
        }
        scheduler.start()
        XCTAssertEqual(all.events, [.next(201, "current"), .next(211, "typed"), .next(221, "more")])
        // `changed` is a `ControlEvent`, itself subscribed on the sharing scheduler: a tick more.
        XCTAssertEqual(changes.events, [.next(212, "typed"), .next(222, "more")])
    }

    func testWhatIsSentGoesToTheSink() {
        let scheduler = TestScheduler(initialClock: 0)
        let sink = scheduler.createObserver(Int.self)
        var property: ControlProperty<Int>!
        SharingScheduler.mock(scheduler: scheduler) {
            property = ControlProperty(values: Observable<Int>.never(), valueSink: sink)
        }
        let input = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        scheduler.scheduleAt(200) { _ = input.bind(to: property) }
        scheduler.start()
        XCTAssertEqual(sink.events, [.next(210, 1), .next(220, 2), .completed(230)])
    }

    func testOrEmptyReadsNilAsTheEmptyStringAndWritesThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let sink = scheduler.createObserver(String?.self)
        let values = scheduler.createColdObservable([.next(0, nil), .next(10, "a" as String?)])
        var text: ControlProperty<String>!
        SharingScheduler.mock(scheduler: scheduler) {
            text = ControlProperty(values: values, valueSink: sink).orEmpty
        }
        scheduler.scheduleAt(300) { text.onNext("typed") }
        XCTAssertEqual(scheduler.start { text }.events, [.next(201, ""), .next(211, "a")])
        XCTAssertEqual(sink.events, [.next(300, "typed")])
    }

    func testAsDriverReplaysTheLatestValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let values = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        var driver: Driver<Int>!
        SharingScheduler.mock(scheduler: scheduler) {
            driver = ControlProperty(values: values, valueSink: scheduler.createObserver(Int.self)).asDriver()
        }
        let first = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = driver.drive(first) }
        scheduler.scheduleAt(220) { _ = driver.drive(late) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(211, 1), .next(231, 2)])
        XCTAssertEqual(late.events, [.next(220, 1), .next(231, 2)])
    }
}
