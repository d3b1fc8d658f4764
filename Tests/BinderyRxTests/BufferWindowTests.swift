import BinderyRx
import BinderyRxTest
import XCTest

/// `buffer(timeSpan:count:scheduler:)` and `window(timeSpan:count:scheduler:)`, in virtual time.
final class BufferWindowTests: XCTestCase {
    func testBufferEmitsWhenFullOrWhenTheTimeSpanEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(280, 4), .next(330, 5), .completed(340),
        ])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        // Full at 230; the next span runs from 230 to 300, and the one after from 300.
        XCTAssertEqual(res.events, [
            .next(230, [1, 2, 3]), .next(300, [4]), .next(340, [5]), .completed(340),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 340)])
    }

    func testBufferEmitsEmptyArraysForQuietSpansAndDropsTheBufferOnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 1), .error(260, TestError.boom)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(20), count: 5, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, []), .next(240, []), .error(260, TestError.boom)])
    }

    func testWindowSplitsByCountAndTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(280, 4), .completed(320),
        ])
        var windows: [TestableObserver<Int>] = []
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(50), count: 2, scheduler: scheduler).map { window -> Int in
                let observer = scheduler.createObserver(Int.self)
                windows.append(observer)
                _ = window.subscribe(observer)
                return windows.count
            }
        }
        // The source's completion at 320 comes before the third window's time span ends there.
        XCTAssertEqual(res.events, [.next(200, 1), .next(220, 2), .next(270, 3), .completed(320)])
        XCTAssertEqual(windows.map(\.events), [
            [.next(210, 1), .next(220, 2), .completed(220)],
            [.next(230, 3), .completed(270)],
            [.next(280, 4), .completed(320)],
        ])
    }

    func testWindowKeepsTheSourceWhileAWindowIsSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let window = scheduler.createObserver(Int.self)
        var windowSubscription: Disposable?
        var outer: Disposable?
        scheduler.scheduleAt(200) {
            outer = xs.window(timeSpan: .seconds(100), count: 10, scheduler: scheduler)
                .subscribe(onNext: { windowSubscription = windowSubscription ?? $0.subscribe(window) })
        }
        scheduler.scheduleAt(215) { outer?.dispose() }
        scheduler.scheduleAt(225) { windowSubscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(window.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }
}
