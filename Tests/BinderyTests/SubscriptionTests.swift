import Foundation
import XCTest

@testable import Bindery

/// A subscriber's coalescing feed of a session's events: a position in its broadcast.
final class SubscriptionTests: XCTestCase {
    /// A reader that counts its wake-ups.
    final class Reader: SubscriptionWake, @unchecked Sendable {
        let calls = Counter()
        func subscriptionHasItems() { calls.increment() }
    }

    private var detached = Counter()
    /// Each item as its JSON, a reset as `R<id>`, the end as `E`, each on a line.
    private static let format = EventWireFormat(event: { _, _, json in Array(json) + [0x0A] }, reset: { Array("R\($0)\n".utf8) }, end: Array("E\n".utf8))

    /// A broadcast retaining `retained` events, its readers allowed `maxBufferedBytes` behind.
    private func broadcast(retained: Int = 64, maxBufferedBytes: Int = 10_000) -> Broadcast {
        Broadcast(log: EventLog(retained: retained, format: Self.format), maxBufferedBytes: maxBufferedBytes)
    }

    private func feed(_ broadcast: Broadcast, initial: [Subscription.Item] = []) -> Subscription {
        let detached = detached
        return broadcast.subscribe(initial: initial) { _ in detached.increment() }
    }

    /// A feed of `broadcast` for each of `readers`, each waiting (its first take found nothing).
    private func waitingFeeds(_ broadcast: Broadcast, _ readers: [Reader]) -> [Subscription] {
        readers.map { reader in
            let feed = feed(broadcast)
            feed.wake = reader
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
        feed.wake = reader
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
        feed.wake = reader
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

    /// One `read` into a buffer of `size` bytes: the text, or what it said instead.
    private func read(_ feed: Subscription, size: Int = 64) -> (String, Subscription.Read) {
        var bytes = [UInt8](repeating: 0, count: size)
        let read = bytes.withUnsafeMutableBytes { feed.read(into: $0) }
        guard case .bytes(let count, _) = read else { return ("", read) }
        return (String(decoding: bytes[..<count], as: UTF8.self), read)
    }

    /// Reads with a buffer of `size` bytes until the feed has nothing: the
    /// text, how it stopped, and how many events the reads said they began.
    private func drain(_ feed: Subscription, size: Int) -> (String, Subscription.Read, events: Int) {
        var text = "", events = 0
        while true {
            let (part, read) = self.read(feed, size: size)
            guard case .bytes(_, let more) = read else { return (text, read, events) }
            text += part
            events += more
        }
    }

    func testReadCopiesTheOneEventUnreadAndLeavesTheReaderWaiting() {
        let broadcast = broadcast(), feed = feed(broadcast)
        let reader = Reader(), calls = reader.calls
        feed.wake = reader
        XCTAssertEqual(read(feed).1, .idle, "nothing published")
        publish(broadcast, "color", .driver, "\"red\"")
        XCTAssertEqual(calls.value, 1, "the read that found nothing left it waiting")
        XCTAssertTrue(read(feed) == ("\"red\"\n", .bytes(6, events: 1)))
        publish(broadcast, "color", .driver, "\"blue\"")
        XCTAssertEqual(calls.value, 2, "the read of the one event left it waiting: no read that finds nothing is needed")
        XCTAssertTrue(read(feed) == ("\"blue\"\n", .bytes(7, events: 1)))
        XCTAssertEqual(read(feed).1, .idle)
    }

    func testIdleCheckHoldsFromTheReadThatLeftTheReaderWaitingUntilAPublicationOrTheFinish() throws {
        let broadcast = broadcast(), feed = feed(broadcast)
        XCTAssertNil(feed.idleCheck, "not waiting before its first read")
        publish(broadcast, "color", .driver, "\"red\"")
        XCTAssertEqual(read(feed).0, "\"red\"\n")
        let check = try XCTUnwrap(feed.idleCheck)
        XCTAssertTrue(check.isStillIdle, "nothing published since the read")
        publish(broadcast, "color", .driver, "\"blue\"")
        XCTAssertFalse(check.isStillIdle, "a publication")
        XCTAssertEqual(read(feed).0, "\"blue\"\n")
        let again = try XCTUnwrap(feed.idleCheck)
        XCTAssertTrue(again.isStillIdle)
        broadcast.finish()
        XCTAssertFalse(again.isStillIdle, "the finish")
        feed.cancel()
        XCTAssertNil(feed.idleCheck, "a cancelled feed does not wait")
    }

    func testAReaderWithPartOfAnItemLeftHasNoIdleCheck() {
        let broadcast = broadcast(), feed = feed(broadcast)
        publish(broadcast, "text", .driver, "\"" + String(repeating: "x", count: 100) + "\"")
        XCTAssertEqual(read(feed, size: 16).1, .bytes(16, events: 1))
        XCTAssertNil(feed.idleCheck, "the rest of the item is the reader's to write")
    }

    func testReadWritesEveryItemInOrderWhateverTheBufferSize() {
        for size in [4096, 64, 7, 1] {
            let broadcast = broadcast()
            publish(broadcast, "color", .driver, "1")
            publish(broadcast, "title", .driver, "\"t\"")
            let feed = feed(broadcast, initial: [.reset(lastEventID: 9)] + broadcast.withLog { $0.snapshot }.map(Subscription.Item.event))
            publish(broadcast, "toast", .signal, "2")
            let big = "\"" + String(repeating: "x", count: 100) + "\""
            publish(broadcast, "color", .driver, big)
            let (text, _, events) = drain(feed, size: size)
            XCTAssertEqual(text, "R9\n\"t\"\n2\n\(big)\n", "the reset first, the replayed color superseded; buffer of \(size)")
            XCTAssertEqual(events, 3, "the reset is not an event")
            broadcast.finish()
            let end = drain(feed, size: size)
            XCTAssertTrue(end.0 == "E\n" && end.1 == .over(.ended) && end.events == 0, "the end is an item, then the feed is over")
        }
    }

    func testAReadThatStopsShortStopsBetweenTwoItems() {
        let broadcast = broadcast(), feed = feed(broadcast)
        publish(broadcast, "toast", .signal, "\"aaaa\"")
        publish(broadcast, "toast", .signal, "\"bbbb\"")
        XCTAssertTrue(read(feed, size: 10) == ("\"aaaa\"\n\"bb", .bytes(10, events: 2)), "full: in the middle of an item")
        XCTAssertTrue(read(feed, size: 64) == ("bb\"\n", .bytes(4, events: 0)), "short: after a whole item")
        XCTAssertEqual(read(feed).1, .idle)
    }

    func testAPrefixGoesBeforeEveryItem() {
        let broadcast = broadcast()
        let feed = broadcast.subscribe(initial: [.reset(lastEventID: 1)], itemPrefix: Array("> ".utf8)) { _ in }
        publish(broadcast, "toast", .signal, "1")
        XCTAssertEqual(drain(feed, size: 64).0, "> R1\n> 1\n")
        publish(broadcast, "toast", .signal, "2")
        XCTAssertEqual(read(feed).0, "> 2\n", "the one event unread, prefixed")
    }

    func testAnEventOverTheReadersLimitIsAnOverflow() {
        let broadcast = broadcast(maxBufferedBytes: 8), feed = feed(broadcast)
        publish(broadcast, "color", .driver, "\"0123456789\"")
        XCTAssertEqual(read(feed).1, .over(.overflow))
    }

    func testTheReaderCancellingIsNotCalledBack() {
        let broadcast = broadcast(), feed = feed(broadcast)
        let reader = Reader(), calls = reader.calls
        feed.wake = reader
        XCTAssertEqual(take(feed).1, .idle)
        feed.cancel()
        publish(broadcast, "color")
        broadcast.finish()
        XCTAssertEqual(calls.value, 0, "the reader cancels under its own lock: a call back would deadlock it")
        XCTAssertNil(feed.wake, "the feed lets go of its reader, which holds it: no cycle is left")
    }
}
