import BinderyTesting
import XCTest

/// Limits are explicit, configurable, and answered with 503 JSON.
final class LimitTests: XCTestCase {
    func testSessionLimit() throws {
        let server = try TestServer { $0.runtime.maxSessions = 2 }
        _ = try server.createSession()
        _ = try server.createSession()
        let third = try server.client.post("/api/simple")
        XCTAssertEqual(third.status, 503)
        XCTAssertEqual(try third.json()["error"] as? String, "limit_reached")
    }

    func testServerWideStreamLimitAndItsRelease() throws {
        let server = try TestServer {
            $0.maxStreams = 2
            $0.heartbeat = .milliseconds(50)
        }
        let id = try server.createSession()
        var first: SSEClient? = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        let second = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        _ = try first?.next(2)
        _ = try second.next(2)
        let third = try server.client.get("/api/simple/\(id)/events")
        XCTAssertEqual(third.status, 503)
        XCTAssertEqual(try third.json()["error"] as? String, "limit_reached")

        // The client goes away while its stream is suspended; the heartbeat's
        // writes are what find it dead and give its place back.
        first = nil
        waitUntil("the gone client's place is given back (\(server.server.openStreams) open)", timeout: 5) { server.server.openStreams == 1 }
        XCTAssertEqual(try SSEClient(port: server.port, path: "/api/simple/\(id)/events").status, 200)
    }

    func testAClientThatClosesAnIdleStreamGivesItsPlaceBackAtOnce() throws {
        // The heartbeat is far away: only noticing the close itself frees the place.
        let server = try TestServer {
            $0.runtime.maxStreamsPerSession = 1
            $0.heartbeat = .seconds(60)
        }
        let id = try server.createSession()
        for round in 0..<5 {
            var stream: SSEClient? = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
            XCTAssertEqual(stream?.status, 200, "round \(round)")
            XCTAssertEqual(try stream?.next(2).count, 2)
            stream = nil // closes the socket while the stream is suspended, waiting for events
            waitUntil("round \(round): the closed stream still holds its place", timeout: 2) { server.server.openStreams == 0 }
        }
    }

    func testPerSessionStreamLimit() throws {
        let server = try TestServer { $0.runtime.maxStreamsPerSession = 1 }
        let id = try server.createSession()
        let first = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        _ = try first.next(2)
        XCTAssertEqual(try server.client.get("/api/simple/\(id)/events").status, 503)
        let other = try server.createSession()
        let elsewhere = try SSEClient(port: server.port, path: "/api/simple/\(other)/events")
        XCTAssertEqual(elsewhere.status, 200)
    }

    func testHeartbeatCommentsKeepStreamsAlive() throws {
        let server = try TestServer { $0.heartbeat = .milliseconds(100) }
        let id = try server.createSession()
        let stream = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        _ = try stream.next(2)
        XCTAssertEqual(try stream.nextComment(timeout: 5), " keep-alive")
    }

    func testStopEndsStreamsWithoutEndSoClientsResume() throws {
        let server = try TestServer()
        let id = try server.createSession()
        let stream = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        _ = try stream.next(2)
        server.server.stop()
        XCTAssertNil(try stream.next(timeout: 5), "the stream closes without bindery.end")
    }

    func testIdleSessionsAreDisposed() throws {
        let server = try TestServer { $0.runtime.sessionIdleTimeout = .seconds(60) }
        let idle = try server.createSession()
        let watched = try server.createSession()
        let stream = try SSEClient(port: server.port, path: "/api/simple/\(watched)/events")
        _ = try stream.next(2)
        let disposed = server.server.application.disposeIdleSessions(now: .now + .seconds(61))
        XCTAssertEqual(disposed, 1)
        XCTAssertEqual(try server.client.get("/api/simple/\(idle)").status, 404)
        XCTAssertEqual(try server.client.get("/api/simple/\(watched)").status, 200, "a session with a stream is not idle")
    }
}
