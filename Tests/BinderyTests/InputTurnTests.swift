import BinderyLoopback
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

/// Work an input started holds its answer (`AnswerHold`): the answer comes
/// after the release, with what the work emitted, and the session serves
/// other requests meanwhile.
final class AnswerHoldTests: XCTestCase {
    /// An input that starts work elsewhere; the test finishes it.
    final class Started {
        let start = PublishRelay<Int>()
        let done: Driver<Int>
        init(finished: BehaviorRelay<Int>, holds: Locked<[AnswerHold?]>) {
            done = finished.asDriver()
            start.subscribe(onNext: { count in
                holds.withLock { $0 += (0..<count).map { _ in AnswerHold.take() } }
            }).disposed(by: bag)
        }
        private let bag = DisposeBag()
    }

    private var application: Application!
    private let finished = BehaviorRelay(value: 0)
    private let holds = Locked<[AnswerHold?]>([])

    override func setUp() {
        var configuration = RuntimeConfiguration()
        configuration.heldAnswerTimeout = .seconds(1)
        application = Application(configuration: configuration)
        application.register("started") { [finished, holds] _ in Started(finished: finished, holds: holds) }
    }

    override func tearDown() { application.stop() }

    /// Sends `start` with `count` holds; the answer's `done` once it comes.
    private func start(_ session: Session, holding count: Int) -> (answered: XCTestExpectation, done: Locked<String?>) {
        let answered = expectation(description: "answered")
        let done = Locked<String?>(nil)
        session.send(input: "start", payload: Data("\(count)".utf8)) { result in
            done.withLock { $0 = (try? result.get()).flatMap { $0.outputs.first { $0.0 == "done" }.map { String(decoding: $0.1, as: UTF8.self) } } }
            answered.fulfill()
        }
        return (answered, done)
    }

    func testTheAnswerWaitsForEveryReleaseAndShowsWhatTheWorkEmitted() async throws {
        let session = try await application.createSession("started")
        let (answered, done) = start(session, holding: 2)
        _ = try await session.snapshot()  // a later turn: served while the input is held
        XCTAssertEqual(holds.withLock { $0.count }, 2)
        XCTAssertNil(done.withLock { $0 }, "not answered while held")

        // The work finishes on another thread: its output, then the releases.
        finished.accept(7)
        holds.withLock { $0[0]?.release() }
        holds.withLock { $0[0]?.release() }  // a second release of one hold is nothing
        _ = try await session.snapshot()
        XCTAssertNil(done.withLock { $0 }, "one hold is still on")
        holds.withLock { $0[1]?.release() }
        await fulfillment(of: [answered], timeout: 5)
        XCTAssertEqual(done.withLock { $0 }, "7", "the answer shows what the work emitted before it released")
    }

    func testAHoldLetGoOfWithoutReleaseReleasesItself() async throws {
        let session = try await application.createSession("started")
        let (answered, _) = start(session, holding: 1)
        _ = try await session.snapshot()
        holds.withLock { $0 = [] }
        await fulfillment(of: [answered], timeout: 5)
    }

    func testAnAnswerHeldPastTheLimitIsAnsweredAnswerTimeoutOnceAndTheWorkGoesOn() async throws {
        let session = try await application.createSession("started")
        let answered = expectation(description: "answered once")  // a second answer would over-fulfil it
        let error = Locked<BinderyError?>(nil)
        session.send(input: "start", payload: Data("1".utf8)) { result in
            if case .failure(let failure) = result { error.withLock { $0 = failure } }
            answered.fulfill()
        }
        await fulfillment(of: [answered], timeout: 10)
        XCTAssertEqual(error.withLock { $0?.code }, .answerTimeout)
        XCTAssertTrue(error.withLock { $0?.message.contains("within 1 s") ?? false }, "\(String(describing: error.withLock { $0 }))")
        // The work finishes after all: what it emits reaches the session, and the late release answers nothing.
        finished.accept(3)
        holds.withLock { $0[0]?.release() }
        let snapshot = try await session.snapshot()
        XCTAssertEqual(snapshot.outputs.first { $0.name == "done" }.map { String(decoding: $0.json, as: UTF8.self) }, "3")
    }

    func testAHoldReleasedFailingAnswersTheFailureTheMostTellingOneWinning() async throws {
        let session = try await application.createSession("started")
        let answered = expectation(description: "answered")
        let answer = Locked<Result<Snapshot, BinderyError>?>(nil)
        session.send(input: "start", payload: Data("3".utf8)) { result in
            answer.withLock { $0 = result }
            answered.fulfill()
        }
        _ = try await session.snapshot()
        struct DriverText: Error {}
        // A ViewModel passes on what its store failed with; the store's own hold says what it was.
        holds.withLock { $0[0]?.release(failing: DriverText()) }
        holds.withLock { $0[1]?.release(failing: BinderyError(.storageFull, "full", applied: false, cause: "SQLite error 13")) }
        holds.withLock { $0[2]?.release(failing: BinderyError(.databaseUnavailable, "later")) }
        await fulfillment(of: [answered], timeout: 5)
        guard case .failure(let error) = answer.withLock({ $0 }) else { return XCTFail("answered \(String(describing: answer.withLock { $0 }))") }
        XCTAssertEqual(error.code, .storageFull)
        XCTAssertEqual(error.applied, false)
        XCTAssertEqual(error.cause, "SQLite error 13")

        // Only errors that are not Bindery's: a 500 whose words are kept for the log.
        let second = expectation(description: "answered")
        session.send(input: "start", payload: Data("1".utf8)) { result in
            answer.withLock { $0 = result }
            second.fulfill()
        }
        _ = try await session.snapshot()
        holds.withLock { $0[3]?.release(Result<Void, Error>.failure(DriverText())) }
        await fulfillment(of: [second], timeout: 5)
        guard case .failure(let generic) = answer.withLock({ $0 }) else { return XCTFail("answered \(String(describing: answer.withLock { $0 }))") }
        XCTAssertEqual(generic.code, .viewModelFailed)
        XCTAssertFalse(generic.message.contains("DriverText"), generic.message)
        XCTAssertTrue(generic.cause?.contains("DriverText") ?? false)
    }

    /// A ViewModel that reads what it shows as it is made: its `init` (its bind) takes a hold.
    final class Loads {
        let loaded: Driver<Int>
        init(finished: BehaviorRelay<Int>, holds: Locked<[AnswerHold?]>) {
            loaded = finished.asDriver()
            holds.withLock { $0.append(AnswerHold.take()) }
        }
    }

    /// Creates a session of `loads`; the result once it comes.
    private func create() -> (made: XCTestExpectation, result: Locked<Result<Session, BinderyError>?>) {
        application.register("loads") { [finished, holds] _ in Loads(finished: finished, holds: holds) }
        let made = expectation(description: "made")
        let result = Locked<Result<Session, BinderyError>?>(nil)
        application.createSession("loads") { created in
            result.withLock { $0 = created }
            made.fulfill()
        }
        return (made, result)
    }

    func testASessionIsMadeOnceWhatItsBindReadIsThereSoItsFirstSnapshotHasIt() async throws {
        let (made, result) = create()
        await waitForHolds(1)
        XCTAssertNil(result.withLock { $0 }, "not made while its bind's read is under way")
        finished.accept(42)
        holds.withLock { $0[0]?.release() }
        await fulfillment(of: [made], timeout: 5)
        let session = try XCTUnwrap(try result.withLock { $0 }?.get())
        let snapshot = try await session.snapshot()
        XCTAssertEqual(snapshot.outputs.first { $0.name == "loaded" }.map { String(decoding: $0.json, as: UTF8.self) }, "42")
    }

    func testABindWhoseReadFailsMakesNoSession() async throws {
        let (made, result) = create()
        await waitForHolds(1)
        holds.withLock { $0[0]?.release(failing: BinderyError(.databaseUnavailable, "the database is away")) }
        await fulfillment(of: [made], timeout: 5)
        guard case .failure(let error) = result.withLock({ $0 }) else { return XCTFail("made: \(String(describing: result.withLock { $0 }))") }
        XCTAssertEqual(error.code, .databaseUnavailable)
    }

    func testABindWhoseReadOutlastsTheLimitIsMadeWithoutItAndTheReadArrivesLater() async throws {
        let (made, result) = create()
        await fulfillment(of: [made], timeout: 10)
        let session = try XCTUnwrap(try result.withLock { $0 }?.get())
        finished.accept(5)
        holds.withLock { $0[0]?.release() }
        let snapshot = try await session.snapshot()
        XCTAssertEqual(snapshot.outputs.first { $0.name == "loaded" }.map { String(decoding: $0.json, as: UTF8.self) }, "5")
    }

    /// Waits until `count` holds were taken (the session's first turn ran).
    private func waitForHolds(_ count: Int) async {
        let taken = await eventually(within: .seconds(5)) { holds.withLock { $0.count } == count }
        XCTAssertTrue(taken)
    }

    func testAnInputThatTakesNoHoldIsAnsweredInItsTurnAndOutsideATurnThereIsNoHold() async throws {
        let session = try await application.createSession("started")
        let (answered, done) = start(session, holding: 0)
        await fulfillment(of: [answered], timeout: 5)
        XCTAssertEqual(done.withLock { $0 }, "0")
        XCTAssertNil(AnswerHold.take(), "no input is being applied on the test's thread")
    }
}
