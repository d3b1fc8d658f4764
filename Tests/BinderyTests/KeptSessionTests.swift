import BinderyDatabase
import BinderyLoopback
import BinderyPostgres
import Foundation
import XCTest

@testable import Bindery

/// Sessions kept in the app's database outlive their `Application`: each
/// ViewModel shape declares its state with `SessionRelay`, and a new
/// application on the same database makes the session again as it was.
/// In SQLite here; in PostgreSQL, as a cluster keeps them, in `PostgresKeptSessionTests`.
class KeptSessionTests: XCTestCase {
    /// Single-method binding: the relay is made in `bind`.
    final class CounterBinding: ViewModelBinding {
        struct Input: Decodable { let increment: Observable<Void> }
        struct Output {
            let count: Driver<Int>
            let disposable: Disposable
        }
        func bind(_ input: Input) -> Output {
            let count = SessionRelay<Int>(value: 0)
            return Output(count: count.asDriver(), disposable: input.increment.withLatestFrom(count).map { $0 + 1 }.bind(to: count))
        }
    }

    /// Nested `input` and `output` structs; the relay is made in `init`.
    final class DraftViewModel {
        struct Input { let edit: AnyObserver<String> }
        struct Output { let draft: Driver<String> }
        let input: Input
        let output: Output
        init() {
            let draft = SessionRelay(value: "")
            input = Input(edit: AnyObserver { event in if case .next(let text) = event { draft.accept(text) } })
            output = Output(draft: draft.asDriver())
        }
    }

    /// RxMVVM: relays as properties, three kept (one a property, an output as a `BehaviorRelay` is), one not.
    final class TagsViewModel {
        let add = PublishRelay<String>()
        let note = SessionRelay(value: "")
        let tags: Driver<[String]>
        let adds: Driver<Int>
        let views: Driver<Int>
        private let disposeBag = DisposeBag()
        init() {
            let tags = SessionRelay<[String]>(value: [])
            let adds = SessionRelay(value: 0)
            let views = BehaviorRelay(value: 1)  // not kept: starts again
            add.subscribe(onNext: {
                tags.accept(tags.value + [$0])
                adds.accept(adds.value + 1)
            }).disposed(by: disposeBag)
            self.tags = tags.asDriver()
            self.adds = adds.asDriver()
            add.map { "last: \($0)" }.bind(to: note).disposed(by: disposeBag)
            self.views = views.asDriver()
        }
    }

    /// `counter` as a later version would write it: its relay holds a `String`.
    final class RetypedCounter {
        let increment = PublishRelay<Void>()
        let count: Driver<String>
        init() { count = SessionRelay(value: "none").asDriver() }
    }

    private var store: SessionStore!

    override func setUpWithError() throws {
        store = try makeStore()
    }

    /// The store every application of a test keeps its sessions in.
    func makeStore() throws -> SessionStore {
        try SQLiteSessionStore(database: try BinderyDatabase.inMemory())
    }

    private func application(retyped: Bool = false) throws -> Application {
        let application = Application()
        application.keepSessions(in: store)
        if retyped {
            application.register("counter") { _ in RetypedCounter() }
        } else {
            application.register("counter") { _ in CounterBinding() }
        }
        application.register("draft") { _ in DraftViewModel() }
        application.register("board", shared: true) { _ in DraftViewModel() }
        application.register("tags") { _ in TagsViewModel() }
        return application
    }

    private func find(_ application: Application, _ viewModel: String, _ id: String) async throws -> Session {
        try await awaitResult { application.findSession(viewModel, id: id, completion: $0) }
    }

    private func outputs(_ snapshot: Snapshot) -> [String: String] {
        Dictionary(uniqueKeysWithValues: snapshot.outputs.map { ($0.name, String(decoding: $0.json, as: UTF8.self)) })
    }

    func testEveryShapeKeepsItsDeclaredStateAcrossAStop() async throws {
        let first = try application()
        let counter = try await first.createSession("counter")
        for _ in 1...3 { _ = try await counter.send(input: "increment", payload: Data()) }
        let draft = try await first.createSession("draft")
        _ = try await draft.send(input: "edit", payload: Data(#""half a sentence""#.utf8))
        let tags = try await first.createSession("tags")
        _ = try await tags.send(input: "add", payload: Data(#""red""#.utf8))
        _ = try await tags.send(input: "add", payload: Data(#""blue""#.utf8))
        first.stop()

        let second = try application()
        XCTAssertEqual(second.sessionCount, 0, "nothing is made before it is asked for")
        let counterAgain = try await find(second, "counter", counter.id)
        let counted = outputs(try await counterAgain.snapshot())
        XCTAssertEqual(counted["count"], "3")
        let drafted = outputs(try await find(second, "draft", draft.id).snapshot())
        XCTAssertEqual(drafted["draft"], #""half a sentence""#)
        let tagged = outputs(try await find(second, "tags", tags.id).snapshot())
        XCTAssertEqual(tagged, ["tags": #"["red","blue"]"#, "adds": "2", "views": "1", "note": #""last: blue""#])
        XCTAssertEqual(second.rebuiltSessionCount, 3)
        // The rebuilt session goes on from its state.
        let next = outputs(try await counterAgain.send(input: "increment", payload: Data()))
        XCTAssertEqual(next["count"], "4")
        second.stop()
    }

    func testASharedSessionComesBackUnderTheIdItsClientsKnow() async throws {
        let first = try application()
        let board = try await first.createSession("board")
        _ = try await board.send(input: "edit", payload: Data(#""for everyone""#.utf8))
        first.stop()

        let second = try application()
        // Both ways a client reaches it, at once: by its id (a stream), and by creation (a new page).
        let id = board.id
        async let byID = awaitResult { second.findSession("board", id: id, completion: $0) }
        async let joined = second.createSession("board")
        let (found, created) = try await (byID, joined)
        XCTAssertTrue(found === created, "one shared session")
        XCTAssertEqual(created.id, board.id)
        let drafted = outputs(try await created.snapshot())
        XCTAssertEqual(drafted["draft"], #""for everyone""#)
        XCTAssertEqual(second.sessionCount, 1)
    }

    func testAStreamResumesAcrossACleanStopWithoutAReset() async throws {
        let first = try application()
        let counter = try await first.createSession("counter")
        let seen = try await counter.send(input: "increment", payload: Data()).lastEventID
        first.stop()

        let session = try await find(try application(), "counter", counter.id)
        var items: [Subscription.Item] = []
        _ = try await session.subscribe(lastEventID: seen).take(into: &items)
        guard case .event(let event) = items.first else { return XCTFail("expected the count again, got \(items)") }
        XCTAssertEqual(event.id, seen + 1, "ids go on from the last one")
        XCTAssertEqual(String(decoding: event.json, as: UTF8.self), "1")
    }

    func testAStreamFromAProcessThatDiedStartsOverOnceWithTheState() async throws {
        let first = try application()
        let counter = try await first.createSession("counter")
        let seen = try await counter.send(input: "increment", payload: Data()).lastEventID
        first.saveSessions()  // saved, as every second; then the process dies: no stop

        let second = try application()
        let session = try await find(second, "counter", counter.id)
        var items: [Subscription.Item] = []
        _ = try await session.subscribe(lastEventID: seen).take(into: &items)
        guard case .reset(let resetID) = items.first, case .event(let value) = items.last else { return XCTFail("expected a reset, got \(items)") }
        XCTAssertGreaterThan(resetID, seen + SessionArchive.restartGap - 1, "no id of the dead process names an event of this one")
        XCTAssertEqual(String(decoding: value.json, as: UTF8.self), "1", "the state as last saved")
        // And if this one dies too before it saves, ids still only go up.
        let third = try application()
        let again = try await find(third, "counter", counter.id)
        let lastID = try await again.snapshot().lastEventID
        XCTAssertGreaterThan(lastID, resetID)
        second.stop()
    }

    func testAStateThatNoLongerFitsIsMadeAfreshWithAReset() async throws {
        let first = try application()
        let counter = try await first.createSession("counter")
        let seen = try await counter.send(input: "increment", payload: Data()).lastEventID
        first.stop()

        let session = try await find(try application(retyped: true), "counter", counter.id)
        let counted = outputs(try await session.snapshot())
        XCTAssertEqual(counted["count"], #""none""#, "the factory's value, not a misread one")
        var items: [Subscription.Item] = []
        _ = try await session.subscribe(lastEventID: seen).take(into: &items)
        guard case .reset = items.first else { return XCTFail("expected a reset, got \(items)") }
    }

    func testADeletedSessionIsNotMadeAgain() async throws {
        let first = try application()
        let counter = try await first.createSession("counter")
        first.disposeSession(counter)
        first.stop()
        await XCTAssertThrowsErrorAsync(try await self.find(try self.application(), "counter", counter.id)) {
            XCTAssertEqual(($0 as? BinderyError)?.code, .unknownSession)
        }
    }

    func testAnIdleSessionLeavesMemoryAndComesBackWhenAskedFor() async throws {
        let application = try application()
        let counter = try await application.createSession("counter")
        _ = try await counter.send(input: "increment", payload: Data())
        XCTAssertEqual(application.disposeIdleSessions(now: .now + .seconds(3_600)), 1)
        try await waitUntil { application.sessionCount == 0 }
        let again = try await find(application, "counter", counter.id)
        XCTAssertFalse(again === counter)
        let counted = outputs(try await again.snapshot())
        XCTAssertEqual(counted["count"], "1")
    }

    func testAnUnusedSessionIsDeletedWhenItIdlesOut() async throws {
        let application = try application()
        let counter = try await application.createSession("counter")
        XCTAssertEqual(application.disposeIdleSessions(now: .now + .seconds(3_600)), 1)
        await XCTAssertThrowsErrorAsync(try await self.find(application, "counter", counter.id))
    }

    private func waitUntil(_ condition: @escaping () -> Bool, file: StaticString = #filePath, line: UInt = #line) async throws {
        let met = await eventually(within: .seconds(5), every: .milliseconds(2)) { condition() }
        XCTAssertTrue(met, "condition not met in 5 s", file: file, line: line)
    }
}

/// The store stays bounded however many sessions earlier processes left (SQLite: seeding 100,000 rows is quick).
final class StoredSessionBoundsTests: XCTestCase {
    private func find(_ application: Application, _ viewModel: String, _ id: String) async throws -> Session {
        try await awaitResult { application.findSession(viewModel, id: id, completion: $0) }
    }

    /// An application that keeps at most `limit` sessions (for ten days) in an
    /// in-memory database, where earlier processes left 100,000 `counter`
    /// sessions, `kept-…0` to `kept-…99999`, last seen a second apart from
    /// `start` on: made in one statement by SQLite (a loop of inserts took 6 s
    /// under the sanitizers).
    private func seeded(keepingAtMost limit: Int, since start: Date) async throws -> Application {
        var configuration = RuntimeConfiguration()
        configuration.maxStoredSessions = limit
        configuration.storedSessionLifetime = .seconds(10 * 86_400)
        let application = Application(configuration: configuration)
        let database = try BinderyDatabase.inMemory()
        try application.keepSessions(in: database)
        application.register("counter") { _ in KeptSessionTests.CounterBinding() }
        try await database.write { db in
            try db.execute(sql: "DELETE FROM bindery_session")
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)
                    INSERT INTO bindery_session (id, view_model, shared, parameters, created_at, last_seen, last_event_id, stopped_cleanly)
                    SELECT printf('kept-%017d', i), 'counter', 0, x'', ? + i, ? + i, 0, 1 FROM n
                    """, arguments: [start.timeIntervalSince1970, start.timeIntervalSince1970])
        }
        return application
    }

    func testStoredSessionsExpireAndStayBounded() async throws {
        let start = Date().addingTimeInterval(-200_000)
        let application = try await seeded(keepingAtMost: 50_000, since: start)
        application.sweepStoredSessions()
        XCTAssertEqual(application.storedSessionCount, 50_000, "the least recently seen go beyond the limit")
        XCTAssertEqual(application.sessionCount, 0, "stored sessions take no memory")
        let recent = try await find(application, "counter", String(format: "kept-%017d", 99_999))
        let counted = try await recent.snapshot().outputs.map { String(decoding: $0.json, as: UTF8.self) }
        XCTAssertEqual(counted, ["0"])
        await XCTAssertThrowsErrorAsync(try await self.find(application, "counter", String(format: "kept-%017d", 0)))

        // Ten days after the last was seen, they have expired.
        application.sweepStoredSessions(now: start.addingTimeInterval(100_000 + 10 * 86_400 + 1))
        XCTAssertEqual(application.storedSessionCount, 1, "only the one made again just now")
    }

    /// A trim of many sessions goes in small batches, so a request that needs
    /// the store meanwhile (a stored session asked for) is served between two,
    /// not after the whole trim.
    func testATrimOfManySessionsHoldsNoRequestUntilItEnds() async throws {
        let application = try await seeded(keepingAtMost: 1_000, since: Date().addingTimeInterval(-200_000))
        let trimmed = Locked(false)
        application.sweepStoredSessions(waiting: false) { trimmed.withLock { $0 = true } }
        let found = try await find(application, "counter", String(format: "kept-%017d", 99_999))
        XCTAssertFalse(trimmed.withLock { $0 }, "the stored session was found while the trim went on")
        XCTAssertEqual(found.id, String(format: "kept-%017d", 99_999))
        // The trim goes on to its end (a second sweep may finish first: it works on the same rows).
        let deadline = Date().addingTimeInterval(30)
        while !trimmed.withLock({ $0 }), Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertTrue(trimmed.withLock { $0 }, "the trim ended")
        application.sweepStoredSessions()
        XCTAssertEqual(application.storedSessionCount, 1_000)
    }

}

/// The same, with the sessions in PostgreSQL, as a cluster keeps them.
final class PostgresKeptSessionTests: KeptSessionTests {
    override func makeStore() throws -> SessionStore {
        try PostgresSessionStore(url: try TestPostgres.freshDatabase())
    }

    // Linux's test discovery finds only the methods a class declares itself.
    override func testEveryShapeKeepsItsDeclaredStateAcrossAStop() async throws { try await super.testEveryShapeKeepsItsDeclaredStateAcrossAStop() }
    override func testASharedSessionComesBackUnderTheIdItsClientsKnow() async throws { try await super.testASharedSessionComesBackUnderTheIdItsClientsKnow() }
    override func testAStreamResumesAcrossACleanStopWithoutAReset() async throws { try await super.testAStreamResumesAcrossACleanStopWithoutAReset() }
    override func testAStreamFromAProcessThatDiedStartsOverOnceWithTheState() async throws {
        try await super.testAStreamFromAProcessThatDiedStartsOverOnceWithTheState()
    }
    override func testAStateThatNoLongerFitsIsMadeAfreshWithAReset() async throws { try await super.testAStateThatNoLongerFitsIsMadeAfreshWithAReset() }
    override func testADeletedSessionIsNotMadeAgain() async throws { try await super.testADeletedSessionIsNotMadeAgain() }
    override func testAnIdleSessionLeavesMemoryAndComesBackWhenAskedFor() async throws {
        try await super.testAnIdleSessionLeavesMemoryAndComesBackWhenAskedFor()
    }
    override func testAnUnusedSessionIsDeletedWhenItIdlesOut() async throws { try await super.testAnUnusedSessionIsDeletedWhenItIdlesOut() }
}

/// A cluster's nodes share one store: a session made again on another node is
/// that node's, and the node that held it before cannot write over it.
final class PostgresClaimTests: XCTestCase {
    func testASaveFromANodeWhoseSessionAnotherClaimedIsRefused() throws {
        let url = try TestPostgres.freshDatabase()
        let first = try PostgresSessionStore(url: url, node: "a")
        let second = try PostgresSessionStore(url: url, node: "b")
        var session = StoredSession(id: "s1", viewModel: "counter", state: Data("1".utf8))
        XCTAssertEqual(try first.save([session], deleting: []), [])
        // Node b makes it again (node a was away); then node a, still holding its copy, saves.
        var claimed = session
        claimed.state = Data("2".utf8)
        try second.claim(claimed)
        session.state = Data("old".utf8)
        XCTAssertEqual(try first.save([session], deleting: []), ["s1"], "refused: b has it now")
        XCTAssertEqual(try first.load(id: "s1")?.state, Data("2".utf8))
        // b's own saves go on; a's delete does not remove b's session.
        claimed.state = Data("3".utf8)
        XCTAssertEqual(try second.save([claimed], deleting: []), [])
        _ = try first.save([], deleting: ["s1"])
        XCTAssertEqual(try second.load(id: "s1")?.state, Data("3".utf8))
    }
}
