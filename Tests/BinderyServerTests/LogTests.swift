import BinderyLoopback
import Foundation
import XCTest

@testable import BinderyServer

/// What the operator reads: a line per request, per stream opened and closed
/// (with why), per session created and disposed, per input refused; and
/// libmicrohttpd's own messages in the same log.
final class LogTests: XCTestCase {
    /// Log lines captured as JSON objects.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [[String: String]] = []
        func append(_ line: String) {
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: String]
            lock.withLock { lines.append(object ?? ["unparsed": line]) }
        }
        var all: [[String: String]] { lock.withLock { lines } }

        /// The lines whose message is `message`, once there are `count` of them (or after 5 s).
        func waitFor(_ message: String, count: Int = 1, where matches: ([String: String]) -> Bool = { _ in true }) -> [[String: String]] {
            _ = eventually(within: .seconds(5)) { all.filter { $0["message"] == message && matches($0) }.count >= count }
            return all.filter { $0["message"] == message && matches($0) }
        }
    }

    private func server(_ log: Lines, _ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        try TestServer {
            $0.runtime.logger = LineLogHandler.logger(format: .json, level: .info, write: { log.append($0) })
            configure(&$0)
        }
    }

    func testEachRequestIsOneLineWithItsRouteStatusDurationAndSession() throws {
        let log = Lines()
        let server = try server(log)
        let id = try server.createSession()
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap").status, 200)

        let created = try XCTUnwrap(log.waitFor("session created").first)
        XCTAssertEqual(created["view_model"], "simple")
        XCTAssertEqual(created["session"], id)
        let requests = log.waitFor("request", count: 2)
        XCTAssertEqual(
            requests.map { "\($0["method"]!) \($0["path"]!) \($0["status"]!)" },
            ["POST /api/simple 201", "POST /api/simple/{sid}/inputs/buttonTap 200"])
        XCTAssertEqual(requests[1]["session"], id)
        XCTAssertNotNil(Double(requests[1]["ms"] ?? ""), "\(requests[1])")
        XCTAssertEqual(requests[1]["level"], "info")
        XCTAssertNotNil(requests[1]["time"])
    }

    func testARefusedInputSaysWhy() throws {
        let log = Lines()
        let server = try server(log)
        let id = try server.createSession()
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap", json: "[1]").status, 400)
        let refused = try XCTUnwrap(log.waitFor("input refused").first)
        XCTAssertEqual(refused["level"], "notice")
        XCTAssertEqual(refused["error"], "invalid_payload")
        XCTAssertEqual(refused["session"], id)
        XCTAssertEqual(refused["path"], "/api/simple/{sid}/inputs/buttonTap")
    }

    func testAStreamClosedForEachReasonSaysWhich() throws {
        let log = Lines()
        let server = try server(log) {
            $0.heartbeat = .milliseconds(20)  // finds clients that left
            $0.runtime.streamBufferBytes = 30  // any live event overflows it (the snapshot is not counted)
        }
        func closed(_ reason: String) -> [String: String]? {
            log.waitFor("stream closed") { $0["reason"] == reason }.first
        }

        let leaving = try server.createSession()
        var client: SSEClient? = try SSEClient(port: server.port, path: "/api/simple/\(leaving)/events")
        XCTAssertEqual(try client?.next(2).count, 2)
        client = nil
        XCTAssertEqual(closed("client_left")?["sessions"], "simple/\(leaving)")

        let ended = try server.createSession()
        let endedStream = try SSEClient(port: server.port, path: "/api/simple/\(ended)/events")
        XCTAssertEqual(try endedStream.next(2).count, 2)
        XCTAssertEqual(try server.client.request("DELETE", "/api/simple/\(ended)").status, 204)
        XCTAssertEqual(closed("session_ended")?["sessions"], "simple/\(ended)")
        XCTAssertEqual(log.waitFor("session disposed") { $0["reason"] == "deleted" }.first?["session"], ended)

        let slow = try server.createSession()
        let slowStream = try SSEClient(port: server.port, path: "/api/simple/\(slow)/events")
        XCTAssertEqual(try slowStream.next(2).count, 2)
        XCTAssertEqual(try server.client.post("/api/simple/\(slow)/inputs/buttonTap").status, 200)
        XCTAssertEqual(closed("overflow")?["sessions"], "simple/\(slow)")

        let stopping = try server.createSession()
        let stoppingStream = try SSEClient(port: server.port, path: "/api/simple/\(stopping)/events")
        XCTAssertEqual(try stoppingStream.next(2).count, 2)
        server.server.stop()
        XCTAssertEqual(closed("shutdown")?["sessions"], "simple/\(stopping)")
        // The example app keeps its sessions: stopping lets them go to the store, each said.
        XCTAssertEqual(log.waitFor("session let go to its store") { $0["reason"] == "shutdown" }.first?["session"] != nil, true)
        let opened = log.waitFor("stream opened", count: 4)
        XCTAssertEqual(opened.count, 4)
    }

    func testLibmicrohttpdMessagesReachTheLogButClientsLeavingDoNot() throws {
        let log = Lines()
        let server = try server(log) { $0.heartbeat = .milliseconds(20) }
        let id = try server.createSession()

        // Streams whose clients leave: the next heartbeat finds each one gone.
        let swarm = try StreamSwarm(port: server.port, path: "/api/simple/\(id)/events", count: 50)
        XCTAssertTrue(swarm.run(timeout: 10) { $0.streams.allSatisfy { $0.events >= 2 } })
        swarm.closeAll()
        waitUntil("every stream closed (\(server.server.openStreams) open)") { server.server.openStreams == 0 }

        // A header larger than the connection's memory pool: libmicrohttpd answers and says why.
        let socket = try Socket(port: server.port)
        socket.write(Data(("GET /api HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 20_000) + "\r\n\r\n").utf8))
        XCTAssertEqual(try server.client.readHead(socket).0, 431)
        let messages = { log.all.compactMap { $0["message"] }.filter { $0.hasPrefix("libmicrohttpd: ") } }
        waitUntil("\(log.all)") { messages().contains { $0.contains("431") } }
        XCTAssertEqual(log.all.first { $0["message"]?.hasPrefix("libmicrohttpd: ") == true }?["level"], "warning")
        XCTAssertFalse(messages().contains { $0.contains("chunked response body") || $0.contains("closed by remote peer") }, "\(messages())")
    }

    func testTextLinesKeepTheirFieldsApart() {
        let log = Lines()
        let captured = Lines()
        _ = log
        let logger = LineLogHandler.logger(format: .text, level: .info, write: { captured.append($0) })
        logger.notice("input refused", metadata: ["detail": "this input takes no payload", "status": "400", "path": "/api/x/{sid}/inputs/y"])
        logger.debug("not shown")
        let line = captured.all.first?["unparsed"] ?? ""
        XCTAssertTrue(line.hasSuffix(#" notice input refused path=/api/x/{sid}/inputs/y status=400 detail="this input takes no payload""# + "\n"), line)
        XCTAssertEqual(captured.all.count, 1)
    }
}

extension LogTests {
    func testARefusalIsOneNoticeWithItsReasonAndClient() throws {
        let log = Lines()
        let server = try server(log)
        XCTAssertEqual(try server.client.get("/api", headers: ["Host": "evil.example"]).status, 421)
        let refused = try XCTUnwrap(log.waitFor("refused").first)
        XCTAssertEqual(refused["level"], "notice")
        XCTAssertEqual(refused["reason"], "host_not_allowed")
        XCTAssertEqual(refused["client"], "127.0.0.1")
    }

    func testEveryAddressWithoutNamedHostsIsWarnedAbout() {
        // Said, not bound: tests listen on loopback only.
        var configuration = ServerConfiguration()
        XCTAssertNil(Server.hostWarning(configuration), "loopback needs no names")
        configuration.host = "0.0.0.0"
        XCTAssertTrue(Server.hostWarning(configuration)?.contains("--allowed-hosts") == true)
        configuration.allowedHosts = ["bindery.example"]
        XCTAssertNil(Server.hostWarning(configuration))
    }
}
