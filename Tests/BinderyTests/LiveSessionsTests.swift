import Foundation
import XCTest

@testable import Bindery

/// The live table on its own: where a session goes, what its limits count,
/// and who waits for one being made.
final class LiveSessionsTests: XCTestCase {
    private let limits = RuntimeConfiguration()

    private func session(_ id: String, client: String? = nil, _ viewModel: String = "counter") -> Session {
        Session(
            id: id, viewModelName: viewModel, client: client, owner: nil, limits: limits,
            scheduler: SerialScheduler(label: "test.live", pool: limits.executors), format: .jsonLines)
    }

    func testAPreferredIdIsTakenOnlyWhileNoSessionIsLiveOrBeingMadeAgainUnderIt() throws {
        let live = LiveSessions(maxSessions: 10, maxPerClient: 10)
        let first = try live.add(at: .new(preferred: "wanted"), client: nil) { session($0) }.session
        XCTAssertEqual(first.id, "wanted")
        let second = try live.add(at: .new(preferred: "wanted"), client: nil) { session($0) }.session
        XCTAssertNotEqual(second.id, "wanted", "a live session keeps its id")
        XCTAssertTrue(SessionID.isValid(second.id))

        guard case .first = live.await(.again(id: "stored"), { _ in }) else { return XCTFail("the first to ask makes it") }
        let third = try live.add(at: .new(preferred: "stored"), client: nil) { session($0) }.session
        XCTAssertNotEqual(third.id, "stored", "an id being made again from the store is taken")
        XCTAssertTrue(live.isTaken("stored"))
    }

    func testARebuiltSessionKeepsTheOneMadeMeanwhile() throws {
        let live = LiveSessions(maxSessions: 10, maxPerClient: 10)
        let made = try live.add(at: .new(preferred: "s1"), client: nil) { session($0) }.session
        let again = try live.add(at: .rebuilt("s1"), client: nil) { _ in
            XCTFail("not made twice")
            return session("s1")
        }
        XCTAssertTrue(again.session === made)
        XCTAssertFalse(again.isNew)
        XCTAssertEqual(live.count, 1)
    }

    func testLimitsCountAtTheirEdgeAndARemovedSessionGivesItsPlaceBack() throws {
        let live = LiveSessions(maxSessions: 3, maxPerClient: 2)
        let a = try live.add(at: .new(), client: "a") { session($0, client: "a") }.session
        _ = try live.add(at: .new(), client: "a") { session($0, client: "a") }
        XCTAssertThrowsError(try live.add(at: .new(), client: "a") { session($0, client: "a") }) {
            XCTAssertEqual(($0 as? BinderyError)?.code, .tooManySessions)
        }
        _ = try live.add(at: .new(), client: "b") { session($0, client: "b") }
        XCTAssertThrowsError(try live.add(at: .new(), client: nil) { session($0) }) {
            XCTAssertEqual(($0 as? BinderyError)?.code, .limitReached)
        }
        live.remove(a)
        XCTAssertEqual(live.count, 2)
        _ = try live.add(at: .new(), client: "a") { session($0, client: "a") }
        XCTAssertEqual(live.counts(of: ["counter", "other"]), ["counter": 3, "other": 0])
    }

    func testAReplicaReplacesTheSessionUnderItsIdEvenAtTheLimit() throws {
        let live = LiveSessions(maxSessions: 1, maxPerClient: 1)
        let old = try live.add(at: .new(preferred: "shared-1"), client: nil, sharedAs: "board") { session($0, "board") }.session
        let made = try live.add(at: .replacing("shared-1"), client: nil, sharedAs: "board") { session($0, "board") }
        XCTAssertTrue(made.replaced === old)
        XCTAssertTrue(live["shared-1"] === made.session)
        guard case .live(let shared) = live.await(.shared(viewModel: "board"), { _ in }) else { return XCTFail("the board's session is live") }
        XCTAssertTrue(shared === made.session)
        live.remove(old)
        XCTAssertTrue(live["shared-1"] === made.session, "removing the replaced one leaves its replacement")
    }

    func testEveryRequestWaitingForASessionGetsTheOneAnswer() throws {
        let live = LiveSessions(maxSessions: 10, maxPerClient: 10)
        let answers = Locked<[String]>([])
        let record: @Sendable (Result<Session, BinderyError>) -> Void = { result in answers.withLock { $0.append((try? result.get().id) ?? "failed") } }
        guard case .first = live.await(.shared(viewModel: "board"), record), case .behind = live.await(.shared(viewModel: "board"), record) else {
            return XCTFail("one looks the shared session up, the other waits behind it")
        }
        let made = try live.add(at: .new(), client: nil, sharedAs: "board") { session($0, "board") }.session
        live.finish(.shared(viewModel: "board"), .success(made))
        XCTAssertEqual(answers.withLock { $0 }, [made.id, made.id])
        guard case .first = live.await(.shared(viewModel: "other"), record) else { return XCTFail("a new look-up after the last finished") }
        live.finish(.shared(viewModel: "other"), .failure(BinderyError(.storeUnavailable, "down")))
        XCTAssertEqual(answers.withLock { $0 }.last, "failed")
    }
}
