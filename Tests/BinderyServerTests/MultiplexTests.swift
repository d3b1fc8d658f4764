import BinderyLoopback
import XCTest

/// `/api/streams`: several sessions' streams on one connection, each event led
/// by its session's line; what one browser's tabs share.
final class MultiplexTests: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer { $0.runtime.retainedEvents = 8 }
    }
    override func tearDown() { server = nil }

    private func open(_ sessions: String) throws -> SSEClient {
        try SSEClient(port: server.port, path: "/api/streams?sessions=\(sessions)")
    }

    func testEachSessionsEventsArriveLedByItsSessionWithItsOwnIDs() throws {
        let a = try server.createSession(), b = try server.createSession()
        let stream = try open("simple/\(a),simple/\(b)")
        XCTAssertEqual(stream.status, 200)
        XCTAssertEqual(stream.headers["content-type"], "text/event-stream; charset=utf-8")
        // Each session's snapshot, with the ids of its own stream.
        let snapshot = try stream.next(4)
        XCTAssertEqual(
            Set(snapshot.map { "\($0.session!) \($0.id!) \($0.event)" }),
            [
                "simple/\(a) 1 backgroundColor", "simple/\(a) 2 buttonTitle",
                "simple/\(b) 1 backgroundColor", "simple/\(b) 2 buttonTitle",
            ])
        XCTAssertEqual(stream.retry, 1000)

        XCTAssertEqual(try server.client.post("/api/simple/\(b)/inputs/buttonTap").status, 200)
        XCTAssertEqual(
            try stream.next(2),
            [
                SSEEvent(session: "simple/\(b)", id: "3", event: "backgroundColor", data: "\"blue\""),
                SSEEvent(session: "simple/\(b)", id: "4", event: "buttonTitle", data: "\"Change to purple\""),
            ])
        XCTAssertEqual(try server.client.post("/api/simple/\(a)/inputs/buttonTap").status, 200)
        XCTAssertEqual(try stream.next(2).map { "\($0.session!) \($0.id!)" }, ["simple/\(a) 3", "simple/\(a) 4"])
    }

    func testEachSessionResumesAfterItsOwnLastEventID() throws {
        let a = try server.createSession(), b = try server.createSession("messages")
        for _ in 0..<2 { XCTAssertEqual(try server.client.post("/api/simple/\(a)/inputs/buttonTap").status, 200) }
        // a: ids 1–6; resuming after 4 gets 5 and 6 only. b: from its snapshot.
        let stream = try open("simple/\(a)@4,messages/\(b)")
        var events: [SSEEvent] = []
        while events.filter({ $0.session == "simple/\(a)" }).count < 2 || !events.contains(where: { $0.session == "messages/\(b)" }),
            events.count < 20, let event = try stream.next()
        {
            events.append(event)
        }
        XCTAssertEqual(events.filter { $0.session == "simple/\(a)" }.map(\.id), ["5", "6"])
        XCTAssertFalse(events.filter { $0.session == "messages/\(b)" }.isEmpty)
        // An id the log no longer holds: a reset, then the snapshot.
        for _ in 0..<8 { XCTAssertEqual(try server.client.post("/api/simple/\(a)/inputs/buttonTap").status, 200) }
        let late = try open("simple/\(a)@1")
        let reset = try XCTUnwrap(try late.next())
        XCTAssertEqual(reset.session, "simple/\(a)")
        XCTAssertEqual(reset.event, "bindery.reset")
    }

    func testASessionListedTwiceIsStreamedOnceFromItsFirstEntry() throws {
        let a = try server.createSession(), b = try server.createSession()
        let stream = try open("simple/\(a),simple/\(b),simple/\(a)@2")
        let snapshot = try stream.next(4)
        XCTAssertEqual(snapshot.map(\.session), ["simple/\(a)", "simple/\(a)", "simple/\(b)", "simple/\(b)"])
        XCTAssertEqual(try server.client.post("/api/simple/\(a)/inputs/buttonTap").status, 200)
        XCTAssertEqual(try stream.next(2).map(\.id), ["3", "4"])
        // A second copy would come before these.
        XCTAssertEqual(try server.client.post("/api/simple/\(a)/inputs/buttonTap").status, 200)
        XCTAssertEqual(try stream.next(2).map(\.id), ["5", "6"], "once, not twice")
    }

    func testAGoneSessionIsNamedInBandAndTheOthersFlow() throws {
        let a = try server.createSession()
        let unknown = "AAAAAAAAAAAAAAAAAAAAAA"  // the form of an id, of no session
        let stream = try open("simple/\(unknown),nope/\(unknown),simple/\(a)")
        XCTAssertEqual(stream.status, 200)
        let gone = try stream.next(2)
        XCTAssertEqual(gone.map(\.event), ["bindery.gone", "bindery.gone"])
        XCTAssertEqual(gone.map(\.session), ["simple/\(unknown)", "nope/\(unknown)"])
        XCTAssertTrue(gone[0].data.contains("\"unknown_session\""), gone[0].data)
        XCTAssertTrue(gone[1].data.contains("\"unknown_view_model\""), gone[1].data)
        XCTAssertEqual(try stream.next(2).map(\.session), ["simple/\(a)", "simple/\(a)"])
    }

    func testADisposedSessionEndsItsPartAndTheStreamEndsWithTheLast() throws {
        let a = try server.createSession(), b = try server.createSession()
        let stream = try open("simple/\(a),simple/\(b)")
        XCTAssertEqual(try stream.next(4).count, 4)
        XCTAssertEqual(try server.client.request("DELETE", "/api/simple/\(a)").status, 204)
        XCTAssertEqual(try stream.next(), SSEEvent(session: "simple/\(a)", event: "bindery.end", data: "null"))
        XCTAssertEqual(try server.client.post("/api/simple/\(b)/inputs/buttonTap").status, 200)
        XCTAssertEqual(try stream.next(2).map(\.session), ["simple/\(b)", "simple/\(b)"])
        XCTAssertEqual(try server.client.request("DELETE", "/api/simple/\(b)").status, 204)
        XCTAssertEqual(try stream.next(), SSEEvent(session: "simple/\(b)", event: "bindery.end", data: "null"))
        XCTAssertNil(try stream.next(), "the stream ends with its last session")
        waitUntil("the ended stream gives its place back (\(server.server.openStreams) open)", timeout: 5) { server.server.openStreams == 0 }
    }

    func testOnlyGoneSessionsGiveAStreamThatSaysSoAndEnds() throws {
        let stream = try open("simple/AAAAAAAAAAAAAAAAAAAAAA")
        XCTAssertEqual(try stream.next()?.event, "bindery.gone")
        XCTAssertNil(try stream.next())
    }

    func testAMalformedOrOversizedListIs400() throws {
        let id = "AAAAAAAAAAAAAAAAAAAAAA"
        for list in ["", ",", "simple", "simple/\(id)@x", "simple/\(id)@", "a/b/c"] {
            let response = try server.client.get("/api/streams?sessions=\(list)")
            XCTAssertEqual(response.status, 400, "\(list): \(response.text)")
            XCTAssertEqual(try response.json()["error"] as? String, "invalid_sessions", list)
        }
        // Nothing that cannot be a name or an id reaches the stream's session: lines.
        let forged = "simple/x%0Aevent:%20backgroundColor%0Adata:%20%22hacked%22%0A%0A"
        for (list, code) in [
            ("simple/", "invalid_session_id"), ("/x", "invalid_name"), ("simple/a", "invalid_session_id"),
            (forged, "invalid_session_id"), ("sim%0Aple/\(id)", "invalid_name"),
        ] {
            let response = try server.client.get("/api/streams?sessions=\(list)")
            XCTAssertEqual(response.status, 400, "\(list): \(response.text)")
            XCTAssertEqual(try response.json()["error"] as? String, code, list)
        }
        XCTAssertEqual(try server.client.get("/api/streams").status, 400)
        let many = (0...64).map { "simple/\(String(format: "%022d", $0))" }.joined(separator: ",")
        XCTAssertTrue(try server.client.get("/api/streams?sessions=\(many)").text.contains("at most 64"))
        XCTAssertEqual(try server.client.post("/api/streams").status, 405)
        XCTAssertEqual(server.server.openStreams, 0)
    }

    func testAMultiplexedStreamCountsOnceAgainstTheLimitAndClientsLeavingGiveItBack() throws {
        let limited = try TestServer {
            $0.maxStreams = 1
            $0.heartbeat = .milliseconds(50)  // its writes find the client gone
        }
        let a = try limited.createSession(), b = try limited.createSession()
        var stream: SSEClient? = try SSEClient(port: limited.port, path: "/api/streams?sessions=simple/\(a),simple/\(b)")
        XCTAssertEqual(try stream?.next(4).count, 4)
        XCTAssertEqual(limited.server.openStreams, 1)
        XCTAssertEqual(try limited.client.get("/api/streams?sessions=simple/\(a)").status, 503)
        stream = nil  // the client leaves
        waitUntil("the gone client's place is given back", timeout: 5) { limited.server.openStreams == 0 }
        XCTAssertEqual(try SSEClient(port: limited.port, path: "/api/streams?sessions=simple/\(a)").status, 200)
    }
}
