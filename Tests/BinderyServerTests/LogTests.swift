import BinderyTesting
import Foundation
import XCTest

/// libmicrohttpd's messages go to the runtime's log, not to stderr; a client
/// that leaves while its stream is written is routine and not logged.
final class LogTests: XCTestCase {
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    func testLibmicrohttpdMessagesReachTheLogButClientsLeavingDoNot() throws {
        let log = Lines()
        let server = try TestServer {
            $0.heartbeat = .milliseconds(20)
            $0.runtime.log = log.append
        }
        let id = try server.createSession()

        // Streams whose clients leave: the next heartbeat finds each one gone.
        let swarm = try StreamSwarm(port: server.port, path: "/api/simple/\(id)/events", count: 50)
        XCTAssertTrue(swarm.run(timeout: 10) { $0.streams.allSatisfy { $0.events >= 2 } })
        swarm.closeAll()
        let deadline = Date().addingTimeInterval(10)
        while server.server.openStreams > 0, Date() < deadline { usleep(10_000) }
        XCTAssertEqual(server.server.openStreams, 0)

        // A header larger than the connection's memory pool: libmicrohttpd answers and says why.
        let socket = try Socket(port: server.port)
        socket.write(Data(("GET /api HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 20_000) + "\r\n\r\n").utf8))
        XCTAssertEqual(try server.client.readHead(socket).0, 431)
        while !log.all.contains(where: { $0.contains("431") }), Date() < deadline { usleep(10_000) }

        XCTAssertTrue(log.all.contains { $0.hasPrefix("libmicrohttpd: ") && $0.contains("431") }, "\(log.all)")
        XCTAssertFalse(log.all.contains { $0.contains("chunked response body") || $0.contains("closed by remote peer") }, "\(log.all)")
    }
}
