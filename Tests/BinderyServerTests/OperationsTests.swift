import BinderyLoopback
import Foundation
import XCTest

@testable import BinderyServer

/// `/metrics`, `/healthz` and `/readyz`: what an operator's scraper and probes read.
final class OperationsTests: XCTestCase {
    /// The value of sample `name` (with its labels, as written) in a scrape.
    private func sample(_ scrape: String, _ name: String) -> Double? {
        for line in scrape.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }

    func testNoClientCanMakeASeriesOfItsOwn() throws {
        let server = try TestServer()
        let id = try server.createSession()
        for path in ["/api/made-up/\(id)/inputs/x", "/api/also-made-up/not-an-id/inputs/x", "/api/simple/\(id)/inputs/buttonTap"] {
            _ = try server.client.post(path)
        }
        let scrape = try server.client.get("/metrics").text
        XCTAssertFalse(scrape.contains("made-up"), scrape)
        XCTAssertEqual(sample(scrape, #"bindery_inputs_total{view_model="simple"}"#), 1)
    }

    func testMetricsCountWhatHappened() throws {
        let server = try TestServer { $0.heartbeat = .milliseconds(20) }
        let id = try server.createSession()
        let stream = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        XCTAssertEqual(try stream.next(2).count, 2)
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap").status, 200)
        XCTAssertEqual(try stream.next(2).count, 2)
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap", json: "[1]").status, 400)
        XCTAssertEqual(try server.client.get("/api/simple/AAAAAAAAAAAAAAAAAAAAAA").status, 404)

        let response = try server.client.get("/metrics")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "text/plain; version=0.0.4; charset=utf-8")
        let scrape = response.text
        XCTAssertEqual(sample(scrape, #"bindery_http_responses_total{status="201"}"#), 1, scrape)
        XCTAssertEqual(sample(scrape, #"bindery_http_responses_total{status="400"}"#), 1)
        XCTAssertEqual(sample(scrape, #"bindery_http_responses_total{status="404"}"#), 1)
        XCTAssertEqual(sample(scrape, #"bindery_inputs_total{view_model="simple"}"#), 2)
        XCTAssertEqual(sample(scrape, #"bindery_input_duration_seconds_count{view_model="simple"}"#), 2)
        XCTAssertEqual(sample(scrape, #"bindery_sessions{view_model="simple"}"#), 1)
        XCTAssertEqual(sample(scrape, #"bindery_sessions{view_model="messages"}"#), 0)
        XCTAssertEqual(sample(scrape, "bindery_streams_open"), 1)
        XCTAssertEqual(sample(scrape, "bindery_streams_opened_total"), 1)
        XCTAssertEqual(sample(scrape, "bindery_events_published_total"), 4)  // the snapshot's two, and the tap's two
        XCTAssertEqual(sample(scrape, "bindery_events_delivered_total"), 4)
        XCTAssertGreaterThan(sample(scrape, "bindery_stream_bytes_written_total") ?? 0, 100)
        XCTAssertGreaterThanOrEqual(sample(scrape, "bindery_connections") ?? 0, 2)  // the stream's and the scrape's

        XCTAssertEqual(try server.client.request("DELETE", "/api/simple/\(id)").status, 204)
        XCTAssertEqual(try stream.next()?.event, "bindery.end")
        let deadline = Date() + 5
        var after = ""
        repeat {
            after = try server.client.get("/metrics").text
        } while sample(after, #"bindery_streams_closed_total{reason="session_ended"}"#) != 1 && Date() < deadline
        XCTAssertEqual(sample(after, #"bindery_streams_closed_total{reason="session_ended"}"#), 1, after)
        XCTAssertEqual(sample(after, "bindery_streams_open"), 0)
        XCTAssertEqual(sample(after, #"bindery_sessions{view_model="simple"}"#), 0)
    }

    func testMetricsCanBeTurnedOff() throws {
        let server = try TestServer { $0.metrics = false }
        let off = try server.client.get("/metrics")
        XCTAssertEqual(off.status, 404)
        XCTAssertEqual(try off.json()["error"] as? String, "not_found")
        XCTAssertTrue((try off.json()["message"] as? String ?? "").contains("metrics are off"))
        XCTAssertEqual(try server.client.get("/healthz").status, 200)
    }

    func testHealthAndReadinessThroughShutdown() throws {
        let server = try TestServer { $0.shutdownGrace = .seconds(3) }
        XCTAssertEqual(try server.client.get("/healthz").text, #"{"status":"ok"}"#)
        XCTAssertEqual(try server.client.get("/readyz").text, #"{"status":"ready"}"#)
        let post = try server.client.post("/readyz")
        XCTAssertEqual(post.status, 405)
        XCTAssertEqual(try post.json()["error"] as? String, "method_not_allowed")

        // A session busy in its ViewModel keeps the server draining.
        let gate = DispatchSemaphore(value: 0), entered = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        server.server.application.register("stall") { _ in IsolationTests.StallViewModel(gate: gate, entered: entered) }
        let id = try server.createSession("stall")
        let busy = try Socket(port: server.port)
        try server.client.send("POST", "/api/stall/\(id)/inputs/wait", headers: [:], body: Data(), on: busy)
        XCTAssertEqual(entered.wait(timeout: .now() + 5), .success)

        // A probe's keep-alive connection, open before the server stops taking new ones.
        let probe = try Socket(port: server.port)
        try server.client.send("GET", "/readyz", headers: [:], body: nil, on: probe)
        XCTAssertEqual(try server.client.readHead(probe).0, 200)
        _ = try probe.read(count: #"{"status":"ready"}"#.utf8.count)

        let stopped = DispatchSemaphore(value: 0)
        Thread {
            server.server.stop()
            stopped.signal()
        }.start()
        waitUntil("the server drains, waiting for the busy session", timeout: 5) { !server.server.isAccepting }
        try server.client.send("GET", "/healthz", headers: [:], body: nil, on: probe)
        XCTAssertEqual(try server.client.readHead(probe).0, 200, "the process is up while it drains")
        _ = try probe.read(count: #"{"status":"ok"}"#.utf8.count)
        try server.client.send("GET", "/readyz", headers: [:], body: nil, on: probe)
        XCTAssertEqual(try server.client.readHead(probe).0, 503, "but it takes no more work")
        gate.signal()
        XCTAssertEqual(stopped.wait(timeout: .now() + 10), .success)
    }
}
