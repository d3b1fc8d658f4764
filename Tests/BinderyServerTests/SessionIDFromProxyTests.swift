import BinderyLoopback
import XCTest

@testable import BinderyServer

/// A cluster's nginx routes a session's requests by its id, so it names a new
/// session's id itself (`X-Bindery-Session-Id: $request_id`) and hashes the
/// create by it: with `--session-id-from-proxy` the node takes that id, and
/// the creator's later requests reach the node that made it. Without the
/// option, or from a peer that is not a trusted proxy, the header is nothing.
final class SessionIDFromProxyTests: XCTestCase {
    private let proxysID = "0123456789abcdef0123456789abcdef"

    private func create(_ server: TestServer, id: String?, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let response = try server.client.post("/api/simple", headers: id.map { ["X-Bindery-Session-Id": $0] } ?? [:])
        XCTAssertEqual(response.status, 201, response.text, file: file, line: line)
        return try XCTUnwrap(response.json()["id"] as? String, file: file, line: line)
    }

    private func proxied(database: String = ":memory:", _ more: (inout ServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        try TestServer {
            $0.trustedProxies = ["127.0.0.1"]
            $0.sessionIDFromProxy = true
            $0.databasePath = database
            more(&$0)
        }
    }

    func testASessionCreatedThroughTheProxyTakesItsIdAndAnswersByIt() throws {
        let server = try proxied()
        let id = try create(server, id: proxysID)
        XCTAssertEqual(id, proxysID)
        let response = try server.client.post("/api/simple/\(id)/inputs/buttonTap")
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertEqual(try response.json()["id"] as? String, proxysID)
        XCTAssertEqual(try server.client.get("/api/simple/\(id)").status, 200)
        let stream = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        XCTAssertNotNil(try stream.next(timeout: 5), "the stream of a proxy-named session opens")
        let multiplexed = try SSEClient(port: server.port, path: "/api/streams?sessions=simple/\(id)")
        XCTAssertNotNil(try multiplexed.next(timeout: 5))
        // Without the header the server names the session itself, as always.
        XCTAssertTrue(SessionID.isMadeHere(try create(server, id: nil)))
    }

    func testWithoutTheOptionTheHeaderIsIgnored() throws {
        let server = try TestServer { $0.trustedProxies = ["127.0.0.1"] }
        let id = try create(server, id: proxysID)
        XCTAssertNotEqual(id, proxysID)
        XCTAssertTrue(SessionID.isMadeHere(id))
        XCTAssertEqual(try server.client.post("/api/simple", headers: ["X-Bindery-Session-Id": "not an id"]).status, 201)
    }

    func testTheHeaderOfAPeerThatIsNotATrustedProxyIsIgnored() throws {
        let server = try proxied { $0.trustedProxies = ["10.0.0.1"] }
        let id = try create(server, id: proxysID)
        XCTAssertNotEqual(id, proxysID)
        XCTAssertTrue(SessionID.isMadeHere(id))
    }

    func testAnIdOfAnotherFormIsRefused() throws {
        let server = try proxied()
        let sessions = server.server.application.sessionCount
        for bad in ["0123456789ABCDEF0123456789ABCDEF", "0123456789abcdef", "abcdefghijklmnopqrstuv", "0123456789abcdef0123456789abcdeg", ""] {
            let response = try server.client.post("/api/simple", headers: ["X-Bindery-Session-Id": bad])
            XCTAssertEqual(response.status, 400, bad)
            XCTAssertEqual(try response.json()["error"] as? String, "invalid_session_id", bad)
        }
        XCTAssertEqual(server.server.application.sessionCount, sessions, "no session was made")
    }

    func testAnIdAlreadyLiveIsNotTakenAgain() throws {
        let server = try proxied()
        XCTAssertEqual(try create(server, id: proxysID), proxysID)
        XCTAssertEqual(try server.client.post("/api/simple/\(proxysID)/inputs/buttonTap").status, 200)
        let second = try create(server, id: proxysID)
        XCTAssertNotEqual(second, proxysID)
        XCTAssertTrue(SessionID.isMadeHere(second))
        // The first session is untouched: its tap is still there.
        let first = try server.client.get("/api/simple/\(proxysID)")
        XCTAssertEqual((try first.json()["outputs"] as? [String: Any])?["backgroundColor"] as? String, "blue", first.text)
    }

    /// Another node, sharing the database, must not make a new session under
    /// the id of one it does not hold but the store does.
    func testAnIdAlreadyStoredIsNotTakenAgain() throws {
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-id-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) } }
        let first = try proxied(database: database)
        XCTAssertEqual(try create(first, id: proxysID), proxysID)
        XCTAssertEqual(try first.client.post("/api/simple/\(proxysID)/inputs/buttonTap").status, 200)
        first.server.stop()  // saves every session

        let other = try proxied(database: database)
        let second = try create(other, id: proxysID)
        XCTAssertNotEqual(second, proxysID)
        let stored = try other.client.get("/api/simple/\(proxysID)")
        XCTAssertEqual(stored.status, 200, stored.text)
        XCTAssertEqual((try stored.json()["outputs"] as? [String: Any])?["backgroundColor"] as? String, "blue", "the stored session, rebuilt")
    }

    func testTheOptionNeedsATrustedProxy() throws {
        XCTAssertThrowsError(try ServeOptions.configuration(arguments: ["--session-id-from-proxy"])) { error in
            guard case ServeOptions.Outcome.invalid(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("--trusted-proxies"), message)
        }
        let configuration = try ServeOptions.configuration(
            arguments: [], environment: ["BINDERY_SESSION_ID_FROM_PROXY": "1", "BINDERY_TRUSTED_PROXIES": "127.0.0.1"])
        XCTAssertTrue(configuration.sessionIDFromProxy)
        XCTAssertFalse(try ServeOptions.configuration(arguments: []).sessionIDFromProxy)
    }

    func testSessionIDForms() {
        XCTAssertTrue(SessionID.isValid(SessionID.make()))
        XCTAssertTrue(SessionID.isValid(proxysID))
        for bad in [
            "0123456789ABCDEF0123456789ABCDEF", "0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdef0", "g123456789abcdef0123456789abcdef",
        ] {
            XCTAssertFalse(SessionID.isValid(bad), bad)
        }
        XCTAssertFalse(BrowserCookie.isValid(proxysID), "a browser's token keeps the server's form")
    }
}
