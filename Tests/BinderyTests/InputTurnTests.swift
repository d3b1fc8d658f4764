import Foundation
import XCTest

@testable import Bindery

/// An input's turn answers its client before it wakes the session's readers.
final class InputTurnTests: XCTestCase {
    /// Each tap changes two drivers: one input, two events.
    final class TwoOutputs {
        let tap = PublishRelay<Void>()
        let count: Driver<Int>
        let label: Driver<String>
        init() {
            count = tap.scan(0) { total, _ in total + 1 }.asDriver(onErrorJustReturn: 0).startWith(0)
            label = count.map { "tapped \($0)" }
        }
    }

    /// Records, in order, what the turn did.
    final class Journal: SubscriptionWake, @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        func write(_ entry: String) { lock.withLock { entries.append(entry) } }
        var read: [String] { lock.withLock { entries } }
        func subscriptionHasItems() { write("woken") }
    }

    private var application: Application!

    override func setUp() {
        application = Application()
        application.register("two") { _ in TwoOutputs() }
    }

    override func tearDown() { application.stop() }

    func testTheInputIsAnsweredBeforeItsReadersAreWokenEachOnce() async throws {
        let session = try await application.createSession("two")
        let feed = try await session.subscribe(lastEventID: nil)
        let journal = Journal()
        feed.wake = journal
        var items: [Subscription.Item] = []
        XCTAssertEqual(feed.take(into: &items), .items, "the snapshot")
        items = []
        XCTAssertEqual(feed.take(into: &items), .idle, "the reader waits")

        let answered = expectation(description: "answered")
        session.send(input: "tap", payload: Data()) { result in
            journal.write((try? result.get().lastEventID).map { "answered at \($0)" } ?? "failed")
            answered.fulfill()
        }
        await fulfillment(of: [answered], timeout: 5)
        _ = try await session.snapshot()  // a later turn: every wake of the input's turn has happened
        XCTAssertEqual(journal.read, ["answered at 4", "woken"], "answered first, then one wake for both events")
        XCTAssertEqual(feed.take(into: &items), .items)
        XCTAssertEqual(items.compactMap { if case .event(let event) = $0 { event.name } else { nil } }, ["count", "label"])
    }
}
