import BinderyLoopback
import Foundation
import XCTest

@testable import Bindery

#if canImport(Glibc)
    import Glibc
#endif

/// Work a ViewModel schedules on `MainScheduler.instance` runs, in a served
/// app: in its session's turns, as on iOS it runs on the main thread.
final class MainSchedulerTests: XCTestCase {
    /// Through `bindery serve`, that is `BinderyApp.run()`: the search example
    /// debounces its query on `MainScheduler.instance` and comes back from its
    /// background service with `observe(on: MainScheduler.instance)`.
    func testASearchDebouncedAndObservedOnTheMainSchedulerAnswersInAServedApp() throws {
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("main-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) } }
        let server = try ServerProcess.serve(database: database)
        let client = HTTPClient(port: server.port)
        let session = try XCTUnwrap(try client.post("/api/search").json()["id"] as? String)
        let stream = try SSEClient(port: server.port, path: "/api/search/\(session)/events")
        for prefix in ["f", "fl", "fla", "flat"] {
            XCTAssertEqual(try client.post("/api/search/\(session)/inputs/query", json: "\"\(prefix)\"").status, 200)
        }
        var results: String?
        while let event = try? stream.next(timeout: 5) {
            if event.event == "results", event.data != "[]" {
                results = event.data
                break
            }
        }
        XCTAssertEqual(results, #"["flatMap","flatMapFirst","flatMapLatest"]"#, "one search, for the last query")
        XCTAssertEqual(try client.get("/api/search/\(session)/outputs/summary").text, #""3 found""#)
        server.send(SIGTERM)
        XCTAssertEqual(server.waitForExit(timeout: 10), 0)
    }
}
