import BinderyRx
import BinderyRxTest
import XCTest

final class MapFilterTests: XCTestCase {
    func testMapNextAndCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(240, 3), .completed(300)])
        let res = scheduler.start { xs.map { $0 * 10 } }
        XCTAssertEqual(res.events, [.next(210, 20), .next(240, 30), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testMapError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, TestError.boom), .next(230, 3)])
        let res = scheduler.start { xs.map { $0 * 10 } }
        XCTAssertEqual(res.events, [.next(210, 20), .error(220, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testMapThrowsEndsWithError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let res = scheduler.start { xs.map { value -> Int in if value == 2 { throw TestError.boom }; return value } }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testMapDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2)])
        let res = scheduler.start(disposed: 230) { xs.map { $0 + 1 } }
        XCTAssertEqual(res.events, [.next(210, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testFilterAndCompactMap() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        let evens = scheduler.start { xs.filter { $0 % 2 == 0 } }
        XCTAssertEqual(evens.events, [.next(220, 2), .next(240, 4), .completed(250)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, "1"), .next(220, "x"), .next(230, "3"), .error(240, TestError.boom)])
        let numbers = scheduler2.start { ys.compactMap { Int($0) } }
        XCTAssertEqual(numbers.events, [.next(210, 1), .next(230, 3), .error(240, TestError.boom)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
    }

    func testScan() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let res = scheduler.start { xs.scan(0, accumulator: +) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 3), .next(230, 6), .completed(240)])
        let into = TestScheduler(initialClock: 0)
        let ys = into.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let arrays = into.start { ys.scan(into: [Int]()) { $0.append($1) } }
        XCTAssertEqual(arrays.events, [.next(210, [1]), .next(220, [1, 2]), .completed(230)])
    }

    func testDistinctUntilChanged() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 1), .next(230, 2), .next(240, 2), .next(250, 1), .completed(260)])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .next(250, 1), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testStartWithEmitsFirstThenSubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 3), .error(220, TestError.boom)])
        let res = scheduler.start { xs.startWith(1, 2) }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .next(210, 3), .error(220, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDoRunsSideEffectsInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        var log: [String] = []
        let res = scheduler.start {
            xs.do(onNext: { log.append("next \($0)") }, afterNext: { log.append("after \($0)") }, onCompleted: { log.append("completed") },
                  onSubscribe: { log.append("subscribe") }, onSubscribed: { log.append("subscribed") }, onDispose: { log.append("dispose") })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(log, ["subscribe", "subscribed", "next 1", "after 1", "completed", "dispose"])
    }

    func testDistinctUntilChangedAtAKeyPath() {
        struct Item: Equatable { let id: Int; let name: String }
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Item(id: 1, name: "a")), .next(220, Item(id: 1, name: "b")), .next(230, Item(id: 2, name: "b")), .completed(240),
        ])
        let res = scheduler.start { xs.distinctUntilChanged(at: \.id).map(\.name) }
        XCTAssertEqual(res.events, [.next(210, "a"), .next(230, "b"), .completed(240)])
    }

}
