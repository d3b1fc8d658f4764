import BinderyLoopback
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// SIGTERM under load, on the real `bindery serve` process: `script/test` runs
/// this again against an AddressSanitizer build (`BINDERY_BINARY`).
final class ShutdownTests: XCTestCase {
    func testSIGTERMWithFiveHundredStreamsAndInputsInFlightExitsZeroPromptly() throws {
        ProcessStats.raiseFileLimit()
        // Leaks are looked for in the server, whatever the test process's own setting.
        var environment = ProcessInfo.processInfo.environment
        environment["ASAN_OPTIONS"] = "detect_leaks=1"
        let server = try ServerProcess(
            ServerProcess.binderyExecutable,
            arguments: [
                "serve", "--port", "0", "--public-directory", TestServer.publicDirectory.path,
                "--max-connections-per-client", "1000",
            ],  // every stream comes from 127.0.0.1
            environment: environment)
        let client = HTTPClient(port: server.port)
        let created = try client.post("/api/simple")
        let id = try XCTUnwrap(created.json()["id"] as? String, created.text)

        let swarm = try StreamSwarm(port: server.port, path: "/api/simple/\(id)/events", count: 500)
        let live = swarm.run(timeout: 30) { $0.streams.allSatisfy { $0.events >= 2 } }
        // What each stream that did not get it saw, for a failure that happens once in hundreds of runs.
        let short = Dictionary(grouping: swarm.streams.filter { $0.events < 2 }) {
            "status \($0.status.map(String.init) ?? "none"), \($0.events) events, \($0.isClosed ? "closed" : "open")"
        }.mapValues(\.count)
        XCTAssertTrue(live, "every stream got the snapshot; those that did not: \(short); stderr:\n\(server.standardError)")

        // Inputs in flight: pipelined on connections nobody reads, so some are
        // queued, some answered, some being written when the signal comes.
        let request = Data("POST /api/simple/\(id)/inputs/buttonTap HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n".utf8)
        let pipelines = try (0..<16).map { _ in try Socket(port: server.port) }
        let fifty = Data(Array(repeating: request, count: 50).joined())
        for socket in pipelines { socket.write(fifty) }

        let signalled = Date()
        server.send(SIGTERM)
        let status = server.waitForExit(timeout: 15)
        let took = Date().timeIntervalSince(signalled)
        XCTAssertEqual(status, 0, "exit status after SIGTERM; stderr:\n\(server.standardError)")
        XCTAssertLessThan(took, 5, "stopped in \(took) s")
        XCTAssertFalse(server.standardError.contains("Sanitizer"), server.standardError)
        XCTAssertTrue(swarm.run(timeout: 5) { $0.streams.allSatisfy(\.isClosed) }, "every stream ended")
        XCTAssertFalse(swarm.streams.contains { $0.lastEvent == "bindery.end" }, "streams end without bindery.end, so clients resume")
    }
}
