import BinderyRx
import BinderyRxTest
import Foundation
import XCTest

/// `range`, `repeatElement`, `enumerated`, `decode`, `mapObserver` and `rx`, as RxSwift's.
final class SmallOperatorTests: XCTestCase {
    func testRangeTakesOneScheduledStepPerElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.range(start: 5, count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 5), .next(202, 6), .next(203, 7), .completed(204)])
    }

    func testRepeatElementGoesOnUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 203) { Observable.repeatElement(1, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .next(202, 1)])
    }

    func testEnumeratedCountsFromZero() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "b"), .completed(230)])
        let res = scheduler.start { xs.enumerated().map { "\($0.index)\($0.element)" } }
        XCTAssertEqual(res.events, [.next(210, "0a"), .next(220, "1b"), .completed(230)])
    }

    func testDecode() {
        struct Item: Decodable, Equatable { let id: Int }
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, Data(#"{"id": 1}"#.utf8)), .next(220, Data("{".utf8))])
        let res = scheduler.start { xs.decode(type: Item.self, decoder: JSONDecoder()) }
        XCTAssertEqual(res.events.count, 2)
        XCTAssertEqual(res.events.first, .next(210, Item(id: 1)))
        XCTAssertNotNil(res.events.last?.value.error)
    }

    func testMapObserverTransformsAndSendsErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        let strings = observer.mapObserver { (text: String) -> Int in
            guard let value = Int(text) else { throw TestError.boom }
            return value
        }
        strings.onNext("4")
        strings.onNext("x")
        XCTAssertEqual(observer.events, [.next(0, 4), .error(0, TestError.boom)])
    }

    func testReactiveBindsWritableProperties() {
        final class Label: ReactiveCompatible { var text = "" }
        let scheduler = TestScheduler(initialClock: 0)
        let label = Label()
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "b")])
        SharingScheduler.mock(scheduler: scheduler) { _ = xs.bind(to: label.rx.text) }
        scheduler.advanceTo(215)
        XCTAssertEqual(label.text, "a")
        scheduler.start()
        XCTAssertEqual(label.text, "b")
    }
}
