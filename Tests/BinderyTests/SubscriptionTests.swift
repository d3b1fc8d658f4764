import Foundation
import XCTest
@testable import Bindery

/// A subscriber's bounded, coalescing feed of a session's events.
final class SubscriptionTests: XCTestCase {
    /// A reader that counts its wake-ups.
    final class Reader: SubscriptionReader, @unchecked Sendable {
        let calls = Counter()
        func subscriptionHasItems() { calls.increment() }
    }

    private var log = EventLog(retained: 64) { _, _, json in Array(json) }
    private var detached = Counter()

    private func event(_ name: String, _ kind: OutputKind = .driver, _ value: String = "1") -> OutputEvent {
        log.append(name: name, kind: kind, json: Data(value.utf8))
    }

    private func feed(maxBufferedBytes: Int = 10_000, initial: [Subscription.Item] = []) -> Subscription {
        let detached = detached
        return Subscription(initial: initial, maxBufferedBytes: maxBufferedBytes) { _ in detached.increment() }
    }

    private func take(_ feed: Subscription) -> ([Subscription.Item], Subscription.Take) {
        var items: [Subscription.Item] = []
        let result = feed.take(into: &items)
        return (items, result)
    }

    func testADriversNewerValueReplacesTheWaitingOneButSignalsAllStay() {
        let feed = feed()
        let color1 = event("color", .driver, "1"), toastA = event("toast", .signal, "\"a\"")
        let color2 = event("color", .driver, "2"), toastB = event("toast", .signal, "\"b\"")
        let color3 = event("color", .driver, "3")
        [color1, toastA, color2, toastB, color3].forEach { feed.push($0) }
        XCTAssertEqual(take(feed).0, [.event(toastA), .event(toastB), .event(color3)])
        XCTAssertEqual(take(feed).1, .idle)
    }

    func testWhatTheReaderTookIsNeverReplaced() {
        let feed = feed()
        let first = event("color", .driver, "\"first\"")
        feed.push(first)
        let (taken, _) = take(feed)
        let second = event("color", .driver, "\"second\"")
        feed.push(second)
        XCTAssertEqual(taken, [.event(first)])
        XCTAssertEqual(take(feed).0, [.event(second)])
    }

    func testAFeedThatCannotKeepUpIsOverAndHoldsNothing() {
        let feed = feed(maxBufferedBytes: 200)
        var accepted = 0
        for index in 0..<100 where feed.push(event("toast", .signal, "\"toast number \(index)\"")) { accepted += 1 }
        XCTAssertLessThan(accepted, 100)
        XCTAssertEqual(take(feed).1, .over(.overflow))
        XCTAssertTrue(take(feed).0.isEmpty)
    }

    func testDriversAloneNeverOverflowBecauseTheyCoalesce() {
        let feed = feed(maxBufferedBytes: 200)
        var last: OutputEvent?
        for index in 0..<10_000 {
            last = event("color", .driver, "\(index)")
            XCTAssertTrue(feed.push(last!))
        }
        XCTAssertEqual(take(feed).0, [.event(last!)])
    }

    func testFinishDeliversWhatWaitsThenEndThenIsOver() {
        let feed = feed(initial: [.reset(lastEventID: 7)])
        let color = event("color")
        feed.push(color)
        feed.finish()
        XCTAssertFalse(feed.push(event("color")), "nothing is queued after the end")
        XCTAssertEqual(take(feed).0, [.reset(lastEventID: 7), .event(color), .end])
        XCTAssertEqual(take(feed).1, .over(.ended))
        XCTAssertEqual(detached.value, 0, "the session ended it: nothing to detach")
    }

    func testCancelDropsWhatWaitsAndDetachesOnce() {
        let feed = feed()
        feed.push(event("color"))
        feed.cancel()
        feed.cancel()
        XCTAssertEqual(take(feed).1, .over(.cancelled))
        XCTAssertEqual(detached.value, 1)
        XCTAssertFalse(feed.push(event("color")))
    }

    func testAReaderIsWokenOnlyAfterItFoundNothingOncePerWait() {
        let feed = feed()
        let reader = Reader(), calls = reader.calls
        feed.reader = reader
        feed.push(event("color"))
        XCTAssertEqual(calls.value, 0, "the reader has not waited yet")
        XCTAssertEqual(take(feed).1, .items)
        XCTAssertEqual(take(feed).1, .idle)
        feed.push(event("color"))
        feed.push(event("toast", .signal))
        XCTAssertEqual(calls.value, 1, "one call per wait, however many events")
        _ = take(feed)
        XCTAssertEqual(take(feed).1, .idle)
        feed.finish()
        XCTAssertEqual(calls.value, 2, "the end of the feed wakes a waiting reader too")
    }

    func testTheReaderCancellingIsNotCalledBack() {
        let feed = feed()
        let reader = Reader(), calls = reader.calls
        feed.reader = reader
        XCTAssertEqual(take(feed).1, .idle)
        feed.cancel()
        XCTAssertEqual(calls.value, 0, "the reader cancels under its own lock: a call back would deadlock it")
        XCTAssertNil(feed.reader, "the feed lets go of its reader, which holds it: no cycle is left")
    }
}
