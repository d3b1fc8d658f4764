import BinderyDatabase
import BinderyLoopback
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Sessions outlive the `bindery` process: stopped (SIGTERM) or killed
/// (`kill -9`) and started again on the same database, it answers every
/// session with the state its ViewModel declared, and streams resume.
final class RestartTests: XCTestCase {
    private var database = ""

    override func setUp() {
        database = FileManager.default.temporaryDirectory.appendingPathComponent("restart-\(UUID()).sqlite").path
    }

    override func tearDown() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
    }

    private func serve(_ more: [String] = []) throws -> ServerProcess {
        try ServerProcess(
            ServerProcess.binderyExecutable,
            arguments: [
                "serve", "--port", "0", "--database", database, "--log-level", "warning",
                "--public-directory", TestServer.publicDirectory.path,
            ] + more)
    }

    private func stop(_ server: ServerProcess, file: StaticString = #filePath, line: UInt = #line) {
        server.send(SIGTERM)
        XCTAssertEqual(server.waitForExit(timeout: 10), 0, file: file, line: line)
    }

    private func outputs(_ response: HTTPResponse, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        XCTAssertEqual(response.status, 200, response.text, file: file, line: line)
        return try XCTUnwrap(response.json()["outputs"] as? [String: Any], file: file, line: line)
    }

    /// Waits until the store holds `id` with a state that contains `text`:
    /// what `kill -9` then cannot take away.
    private func waitUntilStored(_ id: String, containing text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        var readOnly = Configuration()
        readOnly.readonly = true
        let reader = try DatabaseQueue(path: database, configuration: readOnly)
        let stored = try eventually(every: .milliseconds(20)) {
            let state = try reader.read { db in try Data.fetchOne(db, sql: "SELECT state FROM bindery_session WHERE id = ?", arguments: [id]) }
            return state.map { String(decoding: $0, as: UTF8.self).contains(text) } ?? false
        }
        XCTAssertTrue(stored, "session \(id) was not stored with \(text) in 10 s", file: file, line: line)
    }

    func testAStoppedServerGivesEverySessionBackAsItWas() throws {
        let server = try serve()
        let client = HTTPClient(port: server.port)
        let simple = try XCTUnwrap(try client.post("/api/simple").json()["id"] as? String)
        for _ in 0..<2 { XCTAssertEqual(try client.post("/api/simple/\(simple)/inputs/buttonTap").status, 200) }
        let messages = try XCTUnwrap(try client.post("/api/messages").json()["id"] as? String)
        XCTAssertEqual(try client.post("/api/messages/\(messages)/inputs/editText", json: #""first""#).status, 200)
        XCTAssertEqual(try client.post("/api/messages/\(messages)/inputs/sendTap").status, 200)
        // The message is sent after the service's latency: wait for it on the stream.
        let stream = try SSEClient(port: server.port, path: "/api/messages/\(messages)/events")
        var sent: SSEEvent?
        while sent == nil, let event = try stream.next(timeout: 5) { if event.event == "messages", event.data.contains("first") { sent = event } }
        XCTAssertNotNil(sent)
        XCTAssertEqual(try client.post("/api/messages/\(messages)/inputs/editText", json: #""a draft""#).status, 200)
        let before = try outputs(try client.get("/api/simple/\(simple)"))
        stop(server)

        let restarted = try serve()
        let again = HTTPClient(port: restarted.port)
        XCTAssertEqual(try outputs(try again.get("/api/simple/\(simple)"))["backgroundColor"] as? String, "purple")
        XCTAssertEqual(try outputs(try again.get("/api/simple/\(simple)"))["buttonTitle"] as? String, before["buttonTitle"] as? String)
        let kept = try outputs(try again.get("/api/messages/\(messages)"))
        XCTAssertEqual(kept["draft"] as? String, "a draft")
        XCTAssertEqual((kept["messages"] as? [[String: Any]])?.compactMap { $0["text"] as? String }, ["first"])
        // And it goes on: a tap from purple comes back to red.
        XCTAssertEqual(try outputs(try again.post("/api/simple/\(simple)/inputs/buttonTap"))["backgroundColor"] as? String, "red")
        let metrics = try again.get("/metrics").text
        XCTAssertTrue(metrics.contains("bindery_sessions_rebuilt_total 2"), metrics)
        stop(restarted)
    }

    func testWhoFollowsWhomIsKeptByTheServiceAcrossARestart() throws {
        let server = try serve()
        let client = HTTPClient(port: server.port)
        let profile = try XCTUnwrap(try client.post("/api/profile", json: #"{"userID": 2}"#).json()["id"] as? String)
        let stream = try SSEClient(port: server.port, path: "/api/profile/\(profile)/events")
        while let event = try stream.next(timeout: 5), event.event != "name" {}  // the user is loaded
        XCTAssertEqual(try client.post("/api/profile/\(profile)/inputs/followTap").status, 200)
        while let event = try stream.next(timeout: 5), !(event.event == "isFollowing" && event.data == "true") {}
        stop(server)

        // Another page on the same user, after the restart: the service still knows.
        let restarted = try serve()
        let other = try HTTPClient(port: restarted.port).post("/api/profile", json: #"{"userID": 2}"#)
        let id = try XCTUnwrap(other.json()["id"] as? String)
        let again = try SSEClient(port: restarted.port, path: "/api/profile/\(id)/events")
        var following: String?
        var followers: String?
        while following == nil || followers == nil, let event = try again.next(timeout: 5) {
            if event.event == "isFollowing" { following = event.data }
            if event.event == "followers" { followers = event.data }
        }
        XCTAssertEqual(following, "true")
        XCTAssertEqual(followers, "1907")
        stop(restarted)
    }

    func testAStreamResumesAcrossAStopWhereItWas() throws {
        let server = try serve()
        let client = HTTPClient(port: server.port)
        let id = try XCTUnwrap(try client.post("/api/simple").json()["id"] as? String)
        let stream = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        XCTAssertEqual(try stream.next(2).count, 2)
        XCTAssertEqual(try client.post("/api/simple/\(id)/inputs/buttonTap").status, 200)
        let seen = try stream.next(2)
        let lastID = try XCTUnwrap(seen.last?.id.flatMap { UInt64($0) })
        stop(server)

        let restarted = try serve()
        let resumed = try SSEClient(port: restarted.port, path: "/api/simple/\(id)/events", headers: ["Last-Event-ID": "\(lastID)"])
        XCTAssertEqual(resumed.status, 200)
        let events = try resumed.next(2)
        XCTAssertEqual(events.map(\.event).sorted(), ["backgroundColor", "buttonTitle"], "no bindery.reset: \(events)")
        XCTAssertEqual(events.compactMap { $0.id.flatMap { UInt64($0) } }, [lastID + 1, lastID + 2], "ids go on")
        XCTAssertTrue(events.contains { $0.data == #""blue""# })
        // Without Last-Event-ID: the snapshot, as for any new stream.
        let fresh = try SSEClient(port: restarted.port, path: "/api/simple/\(id)/events")
        XCTAssertEqual(try fresh.next(2).map(\.event).sorted(), ["backgroundColor", "buttonTitle"])
        stop(restarted)
    }

    func testKillNineAfterTheSaveLosesNothingAndTheStreamStartsOverOnce() throws {
        let server = try serve(["--session-save-interval", "200"])
        let client = HTTPClient(port: server.port)
        let id = try XCTUnwrap(try client.post("/api/simple").json()["id"] as? String)
        let stream = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        XCTAssertEqual(try stream.next(2).count, 2)
        XCTAssertEqual(try client.post("/api/simple/\(id)/inputs/buttonTap").status, 200)
        let lastID = try XCTUnwrap(try stream.next(2).last?.id.flatMap { UInt64($0) })
        try waitUntilStored(id, containing: #""json":"1""#)
        server.send(SIGKILL)
        XCTAssertNotNil(server.waitForExit(timeout: 10))

        let restarted = try serve()
        let resumed = try SSEClient(port: restarted.port, path: "/api/simple/\(id)/events", headers: ["Last-Event-ID": "\(lastID)"])
        let events = try resumed.next(3)
        XCTAssertEqual(events.first?.event, "bindery.reset", "the dead process may have sent more than it saved: \(events)")
        XCTAssertTrue(events.contains { $0.event == "backgroundColor" && $0.data == #""blue""# }, "\(events)")
        stop(restarted)
    }

    func testABrowsersSessionIsStillOnlyItsOwnAfterARestart() throws {
        let mine = ["Cookie": "bindery_browser=AAAAAAAAAAAAAAAAAAAAAA"]
        let server = try serve()
        let created = try HTTPClient(port: server.port).post("/api/simple", headers: mine)
        let id = try XCTUnwrap(created.json()["id"] as? String)
        XCTAssertEqual(try HTTPClient(port: server.port).post("/api/simple/\(id)/inputs/buttonTap", headers: mine).status, 200)
        stop(server)

        let restarted = try serve()
        let client = HTTPClient(port: restarted.port)
        XCTAssertEqual(try client.get("/api/simple/\(id)").status, 404, "a pasted URL in another browser")
        XCTAssertEqual(try client.get("/api/simple/\(id)", headers: ["Cookie": "bindery_browser=BBBBBBBBBBBBBBBBBBBBBB"]).status, 404)
        XCTAssertEqual(try outputs(try client.get("/api/simple/\(id)", headers: mine))["backgroundColor"] as? String, "blue")
        stop(restarted)
    }

    func testADeletedSessionStaysDeletedAcrossARestart() throws {
        let server = try serve()
        let client = HTTPClient(port: server.port)
        let id = try XCTUnwrap(try client.post("/api/simple").json()["id"] as? String)
        XCTAssertEqual(try client.post("/api/simple/\(id)/inputs/buttonTap").status, 200)
        stop(server)

        let second = try serve()
        XCTAssertEqual(try HTTPClient(port: second.port).request("DELETE", "/api/simple/\(id)").status, 204, "a stored session")
        XCTAssertEqual(try HTTPClient(port: second.port).get("/api/simple/\(id)").status, 404)
        stop(second)
        let third = try serve()
        XCTAssertEqual(try HTTPClient(port: third.port).get("/api/simple/\(id)").status, 404)
        stop(third)
    }

    func testAStoreThatCannotBeReadIs503StoreUnavailableAndTheSessionComesBackOnceItCan() throws {
        let server = try serve()
        let client = HTTPClient(port: server.port)
        let simple = try XCTUnwrap(try client.post("/api/simple").json()["id"] as? String)
        XCTAssertEqual(try client.post("/api/simple/\(simple)/inputs/buttonTap").status, 200)
        stop(server)
        // The sessions' table out of reach, as a botched migration or a hand in sqlite3 would leave it.
        let database = try DatabaseQueue(path: self.database)
        try database.write { db in try db.execute(sql: "ALTER TABLE bindery_session RENAME TO bindery_session_away") }

        let restarted = try serve()
        let again = HTTPClient(port: restarted.port)
        let refused = try again.get("/api/simple/\(simple)")
        XCTAssertEqual(refused.status, 503, refused.text)
        XCTAssertEqual(try refused.json()["error"] as? String, "store_unavailable", refused.text)
        XCTAssertEqual(refused.header("Retry-After"), "2", "a client knows when to ask again")
        XCTAssertTrue(refused.text.contains("try again"), refused.text)
        // Nothing else is disturbed: a new session is made and answers.
        let fresh = try XCTUnwrap(try again.post("/api/simple").json()["id"] as? String)
        XCTAssertEqual(try again.post("/api/simple/\(fresh)/inputs/buttonTap").status, 200)

        // Within reach again: asked again, the session is made from the store as it was.
        try database.write { db in try db.execute(sql: "ALTER TABLE bindery_session_away RENAME TO bindery_session") }
        XCTAssertEqual(try outputs(try again.get("/api/simple/\(simple)"))["backgroundColor"] as? String, "blue")
        stop(restarted)
    }

    func testWithoutAStoreARestartForgetsAsBefore() throws {
        let server = try serve(["--no-session-store"])
        let client = HTTPClient(port: server.port)
        let id = try XCTUnwrap(try client.post("/api/simple").json()["id"] as? String)
        XCTAssertEqual(try client.post("/api/simple/\(id)/inputs/buttonTap").status, 200)
        stop(server)
        let restarted = try serve(["--no-session-store"])
        XCTAssertEqual(try HTTPClient(port: restarted.port).get("/api/simple/\(id)").status, 404)
        stop(restarted)
    }
}
