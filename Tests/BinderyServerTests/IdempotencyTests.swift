import BinderyLoopback
import Foundation
import XCTest

@testable import Bindery

#if canImport(Glibc)
    import Glibc
#endif

/// An input sent with an `Idempotency-Key` is applied once, however often it
/// is sent: a repeat gets the first answer, waits for it if it is still
/// coming, and is refused if the key came with something else.
final class IdempotencyTests: XCTestCase {
    private func tap(_ server: TestServer, _ session: String, key: String?) throws -> HTTPResponse {
        try server.client.post("/api/simple/\(session)/inputs/buttonTap", headers: key.map { ["Idempotency-Key": $0] } ?? [:])
    }

    private func color(_ response: HTTPResponse) throws -> String? {
        (try response.json()["outputs"] as? [String: Any])?["backgroundColor"] as? String
    }

    func testARepeatIsNotAppliedAgainAndGetsTheFirstAnswer() throws {
        let server = try TestServer()
        let session = try server.createSession()
        let first = try tap(server, session, key: "tap-1")
        XCTAssertEqual(first.status, 200)
        XCTAssertNil(first.header("Idempotent-Replayed"))
        let repeated = try tap(server, session, key: "tap-1")
        XCTAssertEqual(repeated.status, 200, repeated.text)
        XCTAssertEqual(repeated.header("Idempotent-Replayed"), "true")
        XCTAssertEqual(try color(repeated), try color(first), "not applied again")
        // A quoted key (a structured-field string) is the same key.
        XCTAssertEqual(try tap(server, session, key: #""tap-1""#).header("Idempotent-Replayed"), "true")
        let second = try tap(server, session, key: "tap-2")
        XCTAssertNotEqual(try color(second), try color(first), "a new key is a new input")
        XCTAssertNotEqual(try color(try tap(server, session, key: nil)), try color(second), "no key: applied each time")
    }

    func testTheSameKeyWithAnotherPayloadIs422AndAppliesNothing() throws {
        let server = try TestServer()
        let session = try XCTUnwrap(try server.client.post("/api/todos", json: #"{"list": "keys"}"#).json()["id"] as? String)
        let headers = ["Idempotency-Key": "add-1"]
        XCTAssertEqual(try server.client.post("/api/todos/\(session)/inputs/add", json: #""milk""#, headers: headers).status, 200)
        let other = try server.client.post("/api/todos/\(session)/inputs/add", json: #""eggs""#, headers: headers)
        try assertError(other, 422, "idempotency_key_reused")
        let toggled = try server.client.post("/api/todos/\(session)/inputs/toggleAll", headers: headers)
        try assertError(toggled, 422, "idempotency_key_reused")
        let snapshot = try server.client.get("/api/todos/\(session)").json()
        let titles = ((snapshot["outputs"] as? [String: Any])?["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
        XCTAssertEqual(titles, ["milk"])
    }

    func testAKeyOfAnotherFormIs400() throws {
        let server = try TestServer()
        let session = try server.createSession()
        for key in [String(repeating: "k", count: 129), "two words", "caf\u{e9}", #"back\slash"#, ""] {
            try assertError(try tap(server, session, key: key), 400, "invalid_idempotency_key")
        }
        XCTAssertEqual(try tap(server, session, key: String(repeating: "k", count: 128)).status, 200, "128 characters: the edge")
        let twice = try server.client.raw(
            "POST /api/simple/\(session)/inputs/buttonTap HTTP/1.1\r\nHost: 127.0.0.1\r\nIdempotency-Key: a\r\nIdempotency-Key: b\r\n"
                + "Content-Length: 0\r\nConnection: close\r\n\r\n")
        try assertError(twice, 400, "invalid_idempotency_key")
    }

    func testASessionRemembersItsLastKeysAndNoMore() throws {
        let server = try TestServer { $0.runtime.inputKeysPerSession = 3 }
        let session = try server.createSession()
        for key in ["k1", "k2", "k3", "k4"] { XCTAssertEqual(try tap(server, session, key: key).status, 200) }
        XCTAssertEqual(try tap(server, session, key: "k2").header("Idempotent-Replayed"), "true", "among the last three")
        XCTAssertNil(try tap(server, session, key: "k1").header("Idempotent-Replayed"), "the oldest went: applied as new")
    }

    /// The first is held by its commit; a repeat sent meanwhile (its client
    /// gave up on the first connection) waits, and both get the one answer.
    func testARepeatOfAnInputStillHeldWaitsForItsAnswerAndItIsAppliedOnce() throws {
        let server = try TestServer()
        let session = try XCTUnwrap(try server.client.post("/api/todos", json: #"{"list": "held"}"#).json()["id"] as? String)
        let writer = try StalledWriter(server)
        defer { writer.letGo() }
        let answers = Locked<[HTTPResponse]>([])
        let answered = DispatchGroup()
        for _ in 0..<2 {
            answered.enter()
            Thread {
                defer { answered.leave() }
                if let answer = try? server.client.post(
                    "/api/todos/\(session)/inputs/add", json: #""once""#, headers: ["Idempotency-Key": "held-1"])
                {
                    answers.withLock { $0.append(answer) }
                }
            }.start()
        }
        XCTAssertEqual(try server.client.get("/healthz").status, 200)
        XCTAssertEqual(answered.wait(timeout: .now() + 0.5), .timedOut, "neither is answered before the commit")
        writer.letGo()
        XCTAssertEqual(answered.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(answers.withLock { $0.map(\.status) }, [200, 200])
        let snapshot = try server.client.get("/api/todos/\(session)").json()
        XCTAssertEqual(((snapshot["outputs"] as? [String: Any])?["items"] as? [Any])?.count, 1, "applied once")
    }

    /// Answered 504 (its commit outlasted the limit): a repeat meanwhile is
    /// told the same at once, not applied; once the commit is done, a repeat
    /// gets the success.
    func testARepeatOfAnInputAnswered504IsToldSoUntilItsWorkEndsThenGetsHowItEnded() throws {
        let server = try TestServer { $0.runtime.heldAnswerTimeout = .seconds(1) }
        let session = try XCTUnwrap(try server.client.post("/api/todos", json: #"{"list": "late"}"#).json()["id"] as? String)
        let writer = try StalledWriter(server)
        defer { writer.letGo() }
        func add() throws -> HTTPResponse {
            try server.client.post("/api/todos/\(session)/inputs/add", json: #""late""#, headers: ["Idempotency-Key": "late-1"])
        }
        try assertError(try add(), 504, "answer_timeout")
        let meanwhile = try add()
        try assertError(meanwhile, 504, "answer_timeout")
        XCTAssertEqual(try meanwhile.json()["applied"] as? Bool, true)
        writer.letGo()
        var after: HTTPResponse?
        waitUntil("the repeat gets the success once the commit is done") {
            after = try? add()
            return after?.status == 200
        }
        XCTAssertEqual(after?.header("Idempotent-Replayed"), "true")
        let snapshot = try server.client.get("/api/todos/\(session)").json()
        XCTAssertEqual(((snapshot["outputs"] as? [String: Any])?["items"] as? [Any])?.count, 1, "applied once")
    }

    /// After `kill -9` the session is made again from its store, which may not
    /// know the key yet: the add's own receipt, committed with it, refuses it.
    func testARepeatAfterSIGKILLIsNotAppliedAgain() throws {
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) } }
        // Saved as it stops, and not before: the next save would be ten minutes away.
        func serve() throws -> ServerProcess { try ServerProcess.serve(database: database, ["--session-save-interval", "600000"]) }
        let server = try serve()
        let created = try HTTPClient(port: server.port).post("/api/todos", json: #"{"list": "crash"}"#)
        let session = try XCTUnwrap(try created.json()["id"] as? String)
        // Saved once, with no key.
        server.send(SIGTERM)
        XCTAssertEqual(server.waitForExit(timeout: 10), 0)
        let second = try serve()
        let add = { (port: UInt16) in
            try HTTPClient(port: port).post("/api/todos/\(session)/inputs/add", json: #""once""#, headers: ["Idempotency-Key": "crash-1"])
        }
        XCTAssertEqual(try add(second.port).status, 200)
        second.send(SIGKILL)
        XCTAssertNotNil(second.waitForExit(timeout: 10))

        let third = try serve()
        let repeated = try add(third.port)
        XCTAssertEqual(repeated.status, 200, repeated.text)
        XCTAssertEqual(try third.todoTitles("crash"), ["once"], "applied once, across the crash")
        XCTAssertEqual(try add(third.port).header("Idempotent-Replayed"), "true", "and known to the session from then on")
        third.send(SIGTERM)
        XCTAssertEqual(third.waitForExit(timeout: 10), 0)
    }

    /// A deploy (SIGTERM) saves the session with its keys, in one record with
    /// its state: a repeat after it is answered, not applied.
    func testARepeatAfterARestartGetsTheFirstAnswer() throws {
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) } }
        func serve() throws -> ServerProcess { try ServerProcess.serve(database: database) }
        let first = try serve()
        let session = try XCTUnwrap(try HTTPClient(port: first.port).post("/api/simple").json()["id"] as? String)
        let tap = { (port: UInt16) in
            try HTTPClient(port: port).post("/api/simple/\(session)/inputs/buttonTap", headers: ["Idempotency-Key": "deploy-1"])
        }
        let answer = try tap(first.port)
        first.send(SIGTERM)
        XCTAssertEqual(first.waitForExit(timeout: 10), 0)
        let second = try serve()
        let repeated = try tap(second.port)
        XCTAssertEqual(repeated.header("Idempotent-Replayed"), "true", repeated.text)
        XCTAssertEqual(try color(repeated), try color(answer))
        second.send(SIGTERM)
        XCTAssertEqual(second.waitForExit(timeout: 10), 0)
    }
}
