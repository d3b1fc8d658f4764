import Foundation
import XCTest
@testable import Bindery

/// A subscriber's coalescing feed of a session's events: a position in its broadcast.
final class SubscriptionTests: XCTestCase {
    /// A reader that counts its wake-ups.
    final class Reader: SubscriptionReader, @unchecked Sendable {
        let calls = Counter()
        func subscriptionHasItems() { calls.increment() }
    }

    private var detached = Counter()

    /// A broadcast retaining `retained` events, its readers allowed `maxBufferedBytes` behind.
    private func broadcast(retained: Int = 64, maxBufferedBytes: Int = 10_000) -> Broadcast {
        Broadcast(log: EventLog(retained: retained) { _, _, json in Array(json) }, maxBufferedBytes: maxBufferedBytes)
    }

    private func feed(_ broadcast: Broadcast, initial: [Subscription.Item] = []) -> Subscription {
        let detached = detached
        return broadcast.subscribe(initial: initial) { _ in detached.increment() }
    }

    /// A feed of `broadcast` for each of `readers`, each waiting (its first take found nothing).
    private func waitingFeeds(_ broadcast: Broadcast, _ readers: [Reader]) -> [Subscription] {
        readers.map { reader in
            let feed = feed(broadcast)
            feed.reader = reader
            XCTAssertEqual(take(feed).1, .idle)
            return feed
        }
    }

    @discardableResult
    private func publish(_ broadcast: Broadcast, _ name: String, _ kind: OutputKind = .driver, _ value: String = "1") -> OutputEvent {
        broadcast.publish(name: name, kind: kind, json: Data(value.utf8))
    }

    private func take(_ feed: Subscription) -> ([Subscription.Item], Subscription.Take) {
        var items: [Subscription.Item] = []
        let result = feed.take(into: &items)
        return (items, result)
    }

    func testADriversNewerValueReplacesTheUnreadOneButSignalsAllStay() {
        let broadcast = broadcast(), feed = feed(broadcast)
        publish(broadcast, "color", .driver, "1")
        let toastA = publish(broadcast, "toast", .signal, "\"a\"")
        publish(broadcast, "color", .driver, "2")
        let toastB = publish(broadcast, "toast", .signal, "\"b\"")
        let color3 = publish(broadcast, "color", .driver, "3")
        XCTAssertEqual(take(feed).0, [.event(toastA), .event(toastB), .event(color3)])
        XCTAssertEqual(take(feed).1, .idle)
    }

    func testANewerValueSupersedesTheOneInTheReplay() {
        let broadcast = broadcast()
        let first = publish(broadcast, "color", .driver, "1"), title = publish(broadcast, "title", .driver, "\"t\"")
        let feed = feed(broadcast, initial: [.reset(lastEventID: 2), .event(first), .event(title)])
        let second = publish(broadcast, "color", .driver, "2")
        XCTAssertEqual(take(feed).0, [.reset(lastEventID: 2), .event(title), .event(second)])
    }

    func testWhatTheReaderTookIsNeverReplaced() {
        let broadcast = broadcast(), feed = feed(broadcast)
        let first = publish(broadcast, "color", .driver, "\"first\"")
        let (taken, _) = take(feed)
        let second = publish(broadcast, "color", .driver, "\"second\"")
        XCTAssertEqual(taken, [.event(first)])
        XCTAssertEqual(take(feed).0, [.event(second)])
    }

    func testAReaderStartsAfterWhatTheLogHadWhenItSubscribed() {
        let broadcast = broadcast()
        publish(broadcast, "toast", .signal)
        let feed = feed(broadcast)
        XCTAssertEqual(take(feed).1, .idle)
        let toast = publish(broadcast, "toast", .signal, "2")
        XCTAssertEqual(take(feed).0, [.event(toast)])
    }

    func testAReaderTooFarBehindIsOverAndDetached() {
        let broadcast = broadcast(maxBufferedBytes: 200), feed = feed(broadcast)
        for index in 0..<100 { publish(broadcast, "toast", .signal, "\"toast number \(index)\"") }
        XCTAssertEqual(take(feed).1, .over(.overflow))
        XCTAssertTrue(take(feed).0.isEmpty)
        XCTAssertEqual(detached.value, 1, "the session lets go of it")
    }

    func testAReaderBehindASignalTheLogForgotIsOver() {
        let broadcast = broadcast(retained: 4), feed = feed(broadcast)
        for _ in 0..<5 { publish(broadcast, "toast", .signal) }
        XCTAssertEqual(take(feed).1, .over(.overflow))
    }

    func testDriversAloneNeverOverflowBecauseTheyCoalesce() {
        let broadcast = broadcast(retained: 4, maxBufferedBytes: 200), feed = feed(broadcast)
        let title = publish(broadcast, "title", .driver, "\"t\"")
        var last: OutputEvent?
        for index in 0..<10_000 { last = publish(broadcast, "color", .driver, "\(index)") }
        XCTAssertEqual(take(feed).0, [.event(title), .event(last!)], "the log forgot both, but they are each driver's latest")
    }

    func testFinishDeliversWhatIsUnreadThenEndThenIsOver() {
        let broadcast = broadcast(), feed = feed(broadcast, initial: [.reset(lastEventID: 7)])
        let color = publish(broadcast, "color")
        broadcast.finish()
        XCTAssertTrue(feed.isOver)
        XCTAssertEqual(take(feed).0, [.reset(lastEventID: 7), .event(color), .end])
        XCTAssertEqual(take(feed).1, .over(.ended))
        XCTAssertEqual(detached.value, 0, "the session ended it: nothing to detach")
    }

    func testCancelDropsWhatWaitsAndDetachesOnce() {
        let broadcast = broadcast(), feed = feed(broadcast)
        publish(broadcast, "color")
        feed.cancel()
        feed.cancel()
        XCTAssertEqual(take(feed).1, .over(.cancelled))
        XCTAssertEqual(detached.value, 1)
        XCTAssertTrue(feed.isOver)
    }

    func testAReaderIsWokenOnlyAfterItHasReadEverythingOncePerWait() {
        let broadcast = broadcast(), feed = feed(broadcast)
        let reader = Reader(), calls = reader.calls
        feed.reader = reader
        publish(broadcast, "color")
        XCTAssertEqual(calls.value, 0, "the reader has not waited yet")
        XCTAssertEqual(take(feed).1, .items)
        XCTAssertEqual(take(feed).1, .idle)
        XCTAssertEqual(take(feed).1, .idle, "asking again while waiting is harmless")
        publish(broadcast, "color")
        publish(broadcast, "toast", .signal)
        XCTAssertEqual(calls.value, 1, "one call per wait, however many events")
        _ = take(feed)
        XCTAssertEqual(take(feed).1, .idle)
        broadcast.finish()
        XCTAssertEqual(calls.value, 2, "the end of the feed wakes a waiting reader too")
    }

    func testEveryWaitingReaderIsWokenByOnePublication() {
        let broadcast = broadcast()
        let readers = (0..<3).map { _ in Reader() }
        let feeds = waitingFeeds(broadcast, readers)
        let toast = publish(broadcast, "toast", .signal)
        XCTAssertEqual(readers.map(\.calls.value), [1, 1, 1])
        for feed in feeds { XCTAssertEqual(take(feed).0, [.event(toast)]) }
    }

    func testHeldWakesWakeEachWaitingReaderOnceWhenReleased() {
        let broadcast = broadcast()
        let readers = (0..<2).map { _ in Reader() }
        let feeds = waitingFeeds(broadcast, readers)
        broadcast.holdWakes()
        let color = publish(broadcast, "color", .driver), toast = publish(broadcast, "toast", .signal)
        XCTAssertEqual(readers.map(\.calls.value), [0, 0], "held")
        broadcast.releaseWakes()
        XCTAssertEqual(readers.map(\.calls.value), [1, 1])
        for feed in feeds { XCTAssertEqual(take(feed).0, [.event(color), .event(toast)]) }
        publish(broadcast, "toast", .signal)
        XCTAssertEqual(readers.map(\.calls.value), [2, 2], "the takes that emptied the log left them waiting again")
    }

    func testATakeThatEmptiesTheLogLeavesTheReaderWaiting() {
        let broadcast = broadcast(), feed = feed(broadcast)
        let reader = Reader(), calls = reader.calls
        feed.reader = reader
        publish(broadcast, "color")
        XCTAssertEqual(take(feed).1, .items)
        let toast = publish(broadcast, "toast", .signal)
        XCTAssertEqual(calls.value, 1, "woken without a take that found nothing: that take needs no lock")
        XCTAssertEqual(take(feed).0, [.event(toast)])
        XCTAssertEqual(take(feed).1, .idle)
        XCTAssertEqual(take(feed).1, .idle)
        broadcast.finish()
        XCTAssertEqual(calls.value, 2)
        XCTAssertEqual(take(feed).0, [.end], "the finish is seen past the lock-free check")
        XCTAssertEqual(take(feed).1, .over(.ended))
    }

    func testCancelIsSeenByTheTakeThatFollowsAWait() {
        let broadcast = broadcast(), feed = feed(broadcast)
        XCTAssertEqual(take(feed).1, .idle)
        feed.cancel()
        XCTAssertEqual(take(feed).1, .over(.cancelled))
    }

    /// `copyNewest` into a buffer of `size` bytes: the bytes, or nil (and whether it said idle).
    private func copyNewest(_ feed: Subscription, size: Int = 64, idle: Bool? = nil) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: size)
        switch bytes.withUnsafeMutableBytes({ feed.copyNewest(into: $0) }) {
        case .copied(let count):
            return Array(bytes[..<count])
        case .idle:
            if let idle { XCTAssertTrue(idle, "idle, where the reader must take") }
            return nil
        case .take:
            if let idle { XCTAssertFalse(idle, "take, where there is nothing to take") }
            return nil
        }
    }

    func testCopyNewestCopiesTheOneEventUnreadAndLeavesTheReaderWaiting() {
        let broadcast = broadcast(), feed = feed(broadcast)
        let reader = Reader(), calls = reader.calls
        feed.reader = reader
        XCTAssertNil(copyNewest(feed), "nothing published")
        let color = publish(broadcast, "color", .driver, "\"red\"")
        XCTAssertEqual(copyNewest(feed), color.encoded)
        XCTAssertNil(copyNewest(feed, idle: true), "read")
        XCTAssertEqual(take(feed).1, .idle)
        publish(broadcast, "color", .driver, "\"blue\"")
        XCTAssertEqual(calls.value, 1, "the copy left it waiting")
    }

    func testQuietHoldsFromTheReadThatLeftTheReaderWaitingUntilAPublicationOrTheFinish() throws {
        let broadcast = broadcast(), feed = feed(broadcast)
        XCTAssertNil(feed.quiet, "not waiting before its first read")
        publish(broadcast, "color", .driver, "\"red\"")
        XCTAssertNotNil(copyNewest(feed))
        let quiet = try XCTUnwrap(feed.quiet)
        XCTAssertTrue(quiet.holds, "nothing published since the copy")
        publish(broadcast, "color", .driver, "\"blue\"")
        XCTAssertFalse(quiet.holds, "a publication")
        XCTAssertEqual(take(feed).1, .items)
        let again = try XCTUnwrap(feed.quiet)
        XCTAssertTrue(again.holds)
        broadcast.finish()
        XCTAssertFalse(again.holds, "the finish")
        feed.cancel()
        XCTAssertNil(feed.quiet, "a cancelled feed does not wait")
    }

    func testCopyNewestLeavesToTakeWhatItCannotCopyAlone() {
        let broadcast = broadcast(), feed = feed(broadcast)
        publish(broadcast, "color", .driver, "1")
        let toast = publish(broadcast, "toast", .signal, "2")
        XCTAssertNil(copyNewest(feed, idle: false), "two events unread")
        XCTAssertEqual(take(feed).0, [.event(broadcast.withLog { $0.latest("color") }!), .event(toast)])
        let big = publish(broadcast, "color", .driver, "\"\(String(repeating: "x", count: 100))\"")
        XCTAssertNil(copyNewest(feed, size: 16, idle: false), "too big for the buffer")
        XCTAssertEqual(take(feed).0, [.event(big)])
        let initial = self.feed(broadcast, initial: [.reset(lastEventID: 3)])
        publish(broadcast, "toast", .signal)
        XCTAssertNil(copyNewest(initial), "the reset goes first")
        broadcast.finish()
        XCTAssertNil(copyNewest(feed, idle: false), "the end is an item")
        XCTAssertEqual(take(feed).1, .items)
    }

    func testCopyNewestOfAnEventOverTheReadersLimitLeavesTheOverflowToTake() {
        let broadcast = broadcast(maxBufferedBytes: 8), feed = feed(broadcast)
        publish(broadcast, "color", .driver, "\"0123456789\"")
        XCTAssertNil(copyNewest(feed))
        XCTAssertEqual(take(feed).1, .over(.overflow))
    }

    func testTheReaderCancellingIsNotCalledBack() {
        let broadcast = broadcast(), feed = feed(broadcast)
        let reader = Reader(), calls = reader.calls
        feed.reader = reader
        XCTAssertEqual(take(feed).1, .idle)
        feed.cancel()
        publish(broadcast, "color")
        broadcast.finish()
        XCTAssertEqual(calls.value, 0, "the reader cancels under its own lock: a call back would deadlock it")
        XCTAssertNil(feed.reader, "the feed lets go of its reader, which holds it: no cycle is left")
    }
}
