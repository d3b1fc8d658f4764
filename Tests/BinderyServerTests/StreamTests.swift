import BinderyLoopback
import XCTest

@testable import Bindery

/// The event stream: snapshot first, then live events; resume with Last-Event-ID.
final class StreamTests: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer { $0.runtime.retainedEvents = 8 }
    }
    override func tearDown() { server = nil }

    func testStreamStartsWithTheSnapshotThenLiveEventsWithIncreasingIDs() throws {
        let id = try server.createSession()
        let stream = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        XCTAssertEqual(stream.status, 200)
        XCTAssertEqual(stream.headers["content-type"], "text/event-stream; charset=utf-8")
        XCTAssertEqual(stream.headers["cache-control"], "no-cache")
        XCTAssertEqual(stream.headers["x-accel-buffering"], "no")

        let snapshot = try stream.next(2)
        XCTAssertEqual(
            snapshot,
            [
                SSEEvent(id: "1", event: "backgroundColor", data: "\"red\""),
                SSEEvent(id: "2", event: "buttonTitle", data: "\"Change to blue\""),
            ])
        XCTAssertEqual(stream.retry, 1000)

        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap").status, 200)
        XCTAssertEqual(
            try stream.next(2),
            [
                SSEEvent(id: "3", event: "backgroundColor", data: "\"blue\""),
                SSEEvent(id: "4", event: "buttonTitle", data: "\"Change to purple\""),
            ])
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap").status, 200)
        XCTAssertEqual(try stream.next(2).map(\.id), ["5", "6"])
    }

    func testAcceptHeaderOnTheSessionURLNegotiatesTheStream() throws {
        let id = try server.createSession()
        let stream = try SSEClient(port: server.port, path: "/api/simple/\(id)", headers: ["Accept": "text/event-stream"])
        XCTAssertEqual(stream.status, 200)
        XCTAssertEqual(try stream.next()?.event, "backgroundColor")
    }

    func testReconnectWithLastEventIDGetsOnlyWhatIsNewer() throws {
        let id = try server.createSession()
        _ = try server.client.post("/api/simple/\(id)/inputs/buttonTap")  // ids 3, 4
        _ = try server.client.post("/api/simple/\(id)/inputs/buttonTap")  // ids 5, 6

        let upToDate = try SSEClient(port: server.port, path: "/api/simple/\(id)/events", headers: ["Last-Event-ID": "6"])
        _ = try server.client.post("/api/simple/\(id)/inputs/buttonTap")  // ids 7, 8
        XCTAssertEqual(try upToDate.next(2).map(\.id), ["7", "8"], "nothing replayed, then live")

        let behind = try SSEClient(port: server.port, path: "/api/simple/\(id)/events", headers: ["Last-Event-ID": "5"])
        XCTAssertEqual(
            try behind.next(2),
            [
                SSEEvent(id: "7", event: "backgroundColor", data: "\"red\""),
                SSEEvent(id: "8", event: "buttonTitle", data: "\"Change to blue\""),
            ], "only each driver's latest value, not its intermediate ones")
    }

    func testLastEventIDOutsideTheRetainedLogGetsAResetAndTheSnapshot() throws {
        let id = try server.createSession()
        for _ in 0..<6 { _ = try server.client.post("/api/simple/\(id)/inputs/buttonTap") }  // 14 events, 8 retained
        for stale in ["1", "999", "garbage"] {
            let stream = try SSEClient(port: server.port, path: "/api/simple/\(id)/events", headers: ["Last-Event-ID": stale])
            let events = try stream.next(stale == "garbage" ? 2 : 3)
            if stale == "garbage" {
                XCTAssertEqual(events.map(\.event), ["backgroundColor", "buttonTitle"], "an unreadable id is no id")
            } else {
                XCTAssertEqual(events.map(\.event), ["bindery.reset", "backgroundColor", "buttonTitle"], "Last-Event-ID \(stale)")
                XCTAssertEqual(events.dropFirst().map(\.id), ["13", "14"])
            }
        }
    }

    func testDisposingTheSessionEndsItsStreamsAndReconnectGets404() throws {
        let id = try server.createSession()
        let stream = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        _ = try stream.next(2)
        XCTAssertEqual(try server.client.request("DELETE", "/api/simple/\(id)").status, 204)
        XCTAssertEqual(try stream.next()?.event, "bindery.end")
        XCTAssertNil(try stream.next(), "the stream ends")
        let again = try server.client.get("/api/simple/\(id)/events")
        XCTAssertEqual(again.status, 404)
    }

    func testManyStreamsOfOneSessionAllSeeEveryEvent() throws {
        let id = try server.createSession()
        let streams = try (0..<20).map { _ in try SSEClient(port: server.port, path: "/api/simple/\(id)/events") }
        for stream in streams { XCTAssertEqual(try stream.next(2).count, 2) }
        _ = try server.client.post("/api/simple/\(id)/inputs/buttonTap")
        for stream in streams { XCTAssertEqual(try stream.next(2).map(\.id), ["3", "4"]) }
    }
}

extension StreamTests {
    func testLastEventIDInTheQueryResumesAndTheHeaderWins() throws {
        let id = try server.createSession()
        _ = try server.client.post("/api/simple/\(id)/inputs/buttonTap")  // ids 3, 4
        let byQuery = try SSEClient(port: server.port, path: "/api/simple/\(id)/events?lastEventId=3")
        _ = try server.client.post("/api/simple/\(id)/inputs/buttonTap")  // ids 5, 6
        XCTAssertEqual(try byQuery.next(3).map(\.id), ["4", "5", "6"])

        let both = try SSEClient(port: server.port, path: "/api/simple/\(id)/events?lastEventId=1", headers: ["Last-Event-ID": "6"])
        _ = try server.client.post("/api/simple/\(id)/inputs/buttonTap")  // ids 7, 8
        XCTAssertEqual(try both.next(2).map(\.id), ["7", "8"])
    }

    /// While the application says its data may be behind (a cluster's node
    /// away from its database), every stream is told, a new one first thing;
    /// and told again when it is current.
    func testStreamsAreToldWhenTheServersDataGoesStaleAndCurrentAgain() throws {
        let server = try TestServer()
        let stale = Locked(false)
        server.server.application.readiness.add { stale.withLock { $0 } ? "its database is away" : nil }
        let id = try server.createSession()
        let open = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        XCTAssertEqual(try open.next(2).map(\.event), ["backgroundColor", "buttonTitle"])

        stale.withLock { $0 = true }
        let told = try XCTUnwrap(try open.next(timeout: 5))
        XCTAssertEqual(told, SSEEvent(event: "bindery.stale", data: "true"))
        XCTAssertEqual(try server.client.get("/readyz").status, 503)
        let late = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        XCTAssertEqual(try late.next(), SSEEvent(event: "bindery.stale", data: "true"), "a new stream first")
        let multiplexed = try SSEClient(port: server.port, path: "/api/streams?sessions=simple/\(id)")
        XCTAssertEqual(try multiplexed.next(), SSEEvent(event: "bindery.stale", data: "true"), "with no session line")

        stale.withLock { $0 = false }
        XCTAssertEqual(try open.next(timeout: 5), SSEEvent(event: "bindery.stale", data: "false"))
        XCTAssertEqual(try late.next(2).map(\.event), ["backgroundColor", "buttonTitle"])
        XCTAssertEqual(try late.next(timeout: 5), SSEEvent(event: "bindery.stale", data: "false"))
        XCTAssertEqual(try server.client.get("/readyz").status, 200)
    }
}
