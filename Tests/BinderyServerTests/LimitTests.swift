import BinderyLoopback
import BinderyServer
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
        XCTAssertEqual(third.header("Retry-After"), "1")
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
        // With epoll's watcher, and with poll(2)'s (another platform's, run here too).
        for waiting in [SocketWaiting.epoll, .poll] {
            // The heartbeat is far away: only noticing the close itself frees the place.
            let server = try TestServer {
                $0.runtime.maxStreamsPerSession = 1
                $0.heartbeat = .seconds(60)
                $0.socketWaiting = waiting
            }
            let id = try server.createSession()
            for round in 0..<5 {
                var stream: SSEClient? = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
                XCTAssertEqual(stream?.status, 200, "\(waiting), round \(round)")
                XCTAssertEqual(try stream?.next(2).count, 2)
                stream = nil  // closes the socket while the stream is suspended, waiting for events
                waitUntil("\(waiting), round \(round): the closed stream still holds its place", timeout: 2) { server.server.openStreams == 0 }
            }
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

    // MARK: Sessions per client

    func testOneClientCannotHoldEverySession() throws {
        let server = try TestServer { $0.runtime.maxSessionsPerClient = 3 }
        let mine = try (0..<3).map { _ in try server.createSession() }
        let fourth = try server.client.post("/api/simple")
        XCTAssertEqual(fourth.status, 429, fourth.text)
        XCTAssertEqual(try fourth.json()["error"] as? String, "too_many_sessions")
        // Another client is not held back by the first one's share.
        XCTAssertEqual(try HTTPClient(port: server.port, from: "127.0.0.2").post("/api/simple").status, 201)
        // A shared ViewModel's one session counts for nobody: joining it is never refused.
        server.server.application.register("everyone", shared: true) { _ in BurstTests.TickViewModel() }
        for _ in 0..<2 { XCTAssertEqual(try server.client.post("/api/everyone").status, 201) }
        // And no one client ends it for everyone.
        let everyone = try XCTUnwrap(try server.client.post("/api/everyone").json()["id"] as? String)
        let delete = try server.client.request("DELETE", "/api/everyone/\(everyone)")
        XCTAssertEqual(delete.status, 405, delete.text)
        XCTAssertEqual(try delete.json()["error"] as? String, "method_not_allowed")
        XCTAssertEqual(delete.header("Allow"), "GET, HEAD")
        XCTAssertEqual(try server.client.get("/api/everyone/\(everyone)").status, 200, "still there")
        // A share comes back when a session goes.
        XCTAssertEqual(try server.client.request("DELETE", "/api/simple/\(mine[0])").status, 204)
        XCTAssertEqual(try server.client.post("/api/simple").status, 201)
        let metrics = try server.client.get("/metrics").text
        XCTAssertTrue(metrics.contains(#"bindery_refusals_total{reason="client_session_limit"} 1"#), metrics)
    }

    func testCreatingSessionsInALoopIsSlowedDown() throws {
        let server = try TestServer {
            $0.sessionCreationRate = 1
            $0.sessionCreationBurst = 3
        }
        for _ in 0..<3 { XCTAssertEqual(try server.client.post("/api/simple").status, 201) }
        let fast = try server.client.post("/api/simple")
        XCTAssertEqual(fast.status, 429, fast.text)
        XCTAssertEqual(try fast.json()["error"] as? String, "rate_limited")
        XCTAssertEqual(fast.header("Retry-After"), "1")
        XCTAssertEqual(server.server.application.sessionCount, 3)
        XCTAssertEqual(try HTTPClient(port: server.port, from: "127.0.0.2").post("/api/simple").status, 201, "another client has its own rate")
        // Inputs and streams are not creations.
        let id = try server.createSession(from: "127.0.0.3")
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap").status, 200)
    }

    func testBehindATrustedProxyEachForwardedClientHasItsOwnShare() throws {
        let server = try TestServer {
            $0.runtime.maxSessionsPerClient = 1
            $0.trustedProxies = ["127.0.0.1"]
        }
        XCTAssertEqual(try server.client.post("/api/simple", headers: ["X-Forwarded-For": "203.0.113.7"]).status, 201)
        XCTAssertEqual(try server.client.post("/api/simple", headers: ["X-Forwarded-For": "203.0.113.7"]).status, 429)
        XCTAssertEqual(try server.client.post("/api/simple", headers: ["X-Forwarded-For": "203.0.113.8"]).status, 201)
        // A client that names itself cannot pick another's share: only the proxy's word counts.
        let direct = HTTPClient(port: server.port, from: "127.0.0.2")
        XCTAssertEqual(try direct.post("/api/simple", headers: ["X-Forwarded-For": "203.0.113.9"]).status, 201)
        XCTAssertEqual(try direct.post("/api/simple", headers: ["X-Forwarded-For": "203.0.113.10"]).status, 429)
    }

    func testASessionNobodyUsedGoesAfterAMinuteAUsedOneAfterTheIdleTimeout() throws {
        let server = try TestServer {
            $0.runtime.unusedSessionTimeout = .seconds(60)
            $0.runtime.sessionIdleTimeout = .seconds(600)
        }
        let abandoned = try server.createSession()
        let posted = try server.createSession()
        XCTAssertEqual(try server.client.post("/api/simple/\(posted)/inputs/buttonTap").status, 200)
        let streamed = try server.createSession()
        var stream: SSEClient? = try SSEClient(port: server.port, path: "/api/simple/\(streamed)/events")
        _ = try stream?.next(2)
        stream = nil
        waitUntil("the stream is closed", timeout: 5) { server.server.openStreams == 0 }
        let application = server.server.application
        XCTAssertEqual(application.disposeIdleSessions(now: .now + .seconds(61)), 1)
        XCTAssertEqual(try server.client.get("/api/simple/\(abandoned)").status, 404)
        for id in [posted, streamed] { XCTAssertEqual(try server.client.get("/api/simple/\(id)").status, 200) }
        XCTAssertEqual(application.disposeIdleSessions(now: .now + .seconds(601)), 2)
    }
}
