import BinderyLoopback
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Pinned to one CPU (as a container limited to one on a big host is), the server
/// starts the threads one CPU can use, and says so as it starts.
final class ThreadCountTests: XCTestCase {
    func testUnderTasksetOneCPUTheServerSizesItsThreadsForOne() throws {
        let taskset = URL(fileURLWithPath: "/usr/bin/taskset")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: taskset.path), "taskset (util-linux) is not installed")
        let server = try ServerProcess(
            taskset,
            arguments: [
                "-c", "0", ServerProcess.binderyExecutable.path, "serve", "--port", "0", "--database", ":memory:", "--log-level", "info",
                "--public-directory", TestServer.publicDirectory.path,
            ])
        XCTAssertEqual(try HTTPClient(port: server.port).get("/healthz").status, 200)
        // libmicrohttpd's own thread (no pool for one worker) and the executor pool's
        // workers for one CPU: no thread per host core.
        let names = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.pid)/task").compactMap { task in
            try? String(contentsOfFile: "/proc/\(server.pid)/task/\(task)/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertLessThanOrEqual(names.filter { $0.hasPrefix("bindery.exec") }.count, 3, "\(names)")
        server.send(SIGTERM)
        XCTAssertEqual(server.waitForExit(timeout: 10), 0)
        let log = server.standardError
        XCTAssertTrue(log.contains("threads cpus=1 executors=3"), log)
        XCTAssertTrue(log.contains("http_workers=1"), log)
        XCTAssertFalse(log.contains("is ignored"), "no warning about a pool of one: \(log)")
    }
}
