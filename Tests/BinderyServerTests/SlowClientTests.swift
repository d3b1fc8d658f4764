import Bindery
import BinderyLoopback
import Foundation
import XCTest

/// Deadlines and fair shares: a client that sends slowly, opens too many
/// connections or stops reading its stream cannot lock anyone else out.
/// Every loop here is bounded in count and time, and every socket is on loopback
/// (`127.0.0.x`: each address another client).
final class SlowClientTests: XCTestCase {
    /// Whether the server closes `socket` within `timeout`, while `trickle` sends one byte every 100 ms.
    private func closedByServer(_ socket: Socket, within timeout: TimeInterval, trickle: String = "") -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var bytes = Array(trickle.utf8)[...]
        while Date() < deadline {
            if let byte = bytes.popFirst() { socket.write(Data([byte])) }
            if socket.isClosedByPeer(timeout: 0.1) { return true }
        }
        return false
    }

    func testHeadersSentOneByteAtATimeAreCutOffAtTheDeadline() throws {
        let server = try TestServer { $0.headerTimeout = .seconds(1) }
        let socket = try Socket(port: server.port)
        let started = Date()
        // Each byte would restart an idle timeout; the deadline counts from the connection's opening.
        XCTAssertTrue(closedByServer(socket, within: 5, trickle: "GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + String(repeating: "a", count: 100)))
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.9)
        // The sweep counts the refusal just after it closed the socket the client saw close.
        waitUntil("the refusal counted") {
            (try? server.client.get("/metrics").text)?.contains(#"bindery_refusals_total{reason="header_timeout"} 1"#) ?? false
        }
    }

    func testAKeptAliveConnectionIsClosedWhenItsNextRequestDoesNotCome() throws {
        let server = try TestServer { $0.headerTimeout = .seconds(1) }
        let socket = try Socket(port: server.port)
        let client = server.client
        try client.send("GET", "/api", headers: [:], body: nil, on: socket)
        XCTAssertEqual(try client.readResponse(socket).status, 200)
        try client.send("GET", "/api", headers: [:], body: nil, on: socket)
        XCTAssertEqual(try client.readResponse(socket).status, 200, "kept alive while requests come")
        XCTAssertTrue(closedByServer(socket, within: 5))
    }

    func testABodySentSlowlyIsCutOffAtItsDeadline() throws {
        let server = try TestServer { $0.bodyTimeout = .seconds(1) }
        let socket = try Socket(port: server.port)
        socket.write(Data("POST /api/simple HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n".utf8))
        XCTAssertTrue(closedByServer(socket, within: 5, trickle: "{" + String(repeating: " ", count: 98)))
        XCTAssertEqual(server.server.application.sessionCount, 0)
    }

    func testSlowSendersCannotLockOtherClientsOut() throws {
        let server = try TestServer {
            $0.maxConnections = 32
            $0.maxConnectionsPerClient = 8
            $0.headerTimeout = .seconds(3)
        }
        // Four clients hold their whole share with headers that never end: the server's every place.
        let slow = try (1...4).flatMap { client in
            try (0..<8).map { _ -> Socket in
                let socket = try Socket(port: server.port, from: "127.0.0.\(client)")
                socket.write(Data("GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8))
                return socket
            }
        }
        waitUntil("the slow connections are open (\(server.server.openConnections))", timeout: 5) { server.server.openConnections == 32 }
        // One more from a client at its share: 429 at once, not a wait in the listen queue.
        let started = Date()
        let over = try HTTPClient(port: server.port, from: "127.0.0.1").get("/api")
        XCTAssertEqual(over.status, 429, over.text)
        XCTAssertEqual(try over.json()["error"] as? String, "too_many_connections")
        XCTAssertEqual(over.header("Retry-After"), "1")
        // Another client, with the server at its limit: 503 at once.
        let full = try HTTPClient(port: server.port, from: "127.0.0.9").get("/api")
        XCTAssertEqual(full.status, 503, full.text)
        XCTAssertEqual(try full.json()["error"] as? String, "limit_reached")
        XCTAssertLessThan(Date().timeIntervalSince(started), 1, "refused at once")
        // The slow ones go at their deadline, and everyone is served again.
        XCTAssertTrue(slow.allSatisfy { closedByServer($0, within: 6) })
        // The client sees the end before libmicrohttpd has reported each closed: wait for that.
        waitUntil("the slow connections are gone (\(server.server.openConnections))", timeout: 5) { server.server.openConnections == 0 }
        XCTAssertEqual(try HTTPClient(port: server.port, from: "127.0.0.9").get("/api").status, 200)
        XCTAssertEqual(try HTTPClient(port: server.port, from: "127.0.0.1").get("/api").status, 200)
        let metrics = try server.client.get("/metrics").text
        for reason in ["client_connection_limit", "connection_limit"] {
            XCTAssertTrue(metrics.contains(#"bindery_refusals_total{reason="\#(reason)"} 1"#), metrics)
        }
    }

    func testATrustedProxyCarriesManyClientsSoItsConnectionsAreNotCapped() throws {
        let server = try TestServer {
            $0.maxConnectionsPerClient = 2
            $0.trustedProxies = ["127.0.0.5"]
        }
        let held = try (0..<4).map { _ -> Socket in
            let socket = try Socket(port: server.port, from: "127.0.0.5")
            socket.write(Data("GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8))
            return socket
        }
        XCTAssertEqual(try HTTPClient(port: server.port, from: "127.0.0.5").get("/api").status, 200)
        XCTAssertEqual(held.count, 4)
    }

    // MARK: Streams

    /// A ViewModel that sends `blob` signals of 16 KiB when asked.
    final class FirehoseViewModel {
        let emit = PublishRelay<Int>()
        let blob: Signal<String>
        init() {
            let chunk = String(repeating: "x", count: 16 * 1024)
            blob = emit.flatMap { count in Observable.from(Array(repeating: chunk, count: count)) }.asSignal(onErrorSignalWith: .empty())
        }
    }

    func testAStreamWhoseClientStopsReadingIsClosedAndGivesItsPlacesBack() throws {
        let server = try TestServer {
            $0.stalledStreamTimeout = .seconds(1)
            $0.runtime.streamBufferBytes = 64 << 20  // never too far behind: only the stall can end it
            $0.runtime.maxStreamsPerSession = 1
        }
        server.server.application.register("firehose") { _ in FirehoseViewModel() }
        let id = try server.createSession("firehose")
        // A client with a small window that never reads.
        let socket = try Socket(port: server.port, receiveBuffer: 4096)
        try server.client.send("GET", "/api/firehose/\(id)/events", headers: [:], body: nil, on: socket)
        waitUntil("the stream is open", timeout: 5) { server.server.openStreams == 1 }
        // 8 MiB, more than the sockets between them hold.
        for _ in 0..<8 { XCTAssertEqual(try server.client.post("/api/firehose/\(id)/inputs/emit", json: "64").status, 200) }
        waitUntil("the stalled stream is closed (\(server.server.openStreams) open)", timeout: 10) { server.server.openStreams == 0 }
        // Its place on the session is free again.
        let next = try SSEClient(port: server.port, path: "/api/firehose/\(id)/events")
        XCTAssertEqual(next.status, 200)
        let metrics = try server.client.get("/metrics").text
        XCTAssertTrue(metrics.contains(#"bindery_streams_closed_total{reason="stalled"} 1"#), metrics)
    }

    /// Clients that never read: what the kernel holds for each stream is
    /// bounded (not its `tcp_wmem` most, 4 MiB), a stream whose bytes sit in
    /// the kernel unacknowledged is stalled even when Bindery has nothing more
    /// to send, and a stalled stream's socket is reset, its memory freed at
    /// once rather than held by a closing socket that can never send.
    func testStreamsThatNeverReadHoldLittleKernelMemoryAndFreeItWhenClosed() throws {
        let streams = 40
        let server = try TestServer {
            $0.stalledStreamTimeout = .seconds(2)
            $0.runtime.streamBufferBytes = 64 << 20  // never too far behind: only the stall can end them
            $0.runtime.maxStreamsPerSession = streams
        }
        server.server.application.register("firehose") { _ in FirehoseViewModel() }
        let id = try server.createSession("firehose")
        let sockets = try (0..<streams).map { _ in
            let socket = try Socket(port: server.port, receiveBuffer: 4096)
            try server.client.send("GET", "/api/firehose/\(id)/events", headers: [:], body: nil, on: socket)
            return socket
        }
        waitUntil("the streams are open", timeout: 10) { server.server.openStreams == streams }
        // 6 MiB each: more than the kernel holds for a socket, at its most.
        for _ in 0..<6 { XCTAssertEqual(try server.client.post("/api/firehose/\(id)/inputs/emit", json: "64").status, 200) }
        var held = 0
        waitUntil("the kernel's send queues fill (\(held) bytes)", timeout: 10) {
            held = ServerSockets(port: server.port).sendQueued
            return held > streams * 16 * 1024
        }
        // The most they hold while they stall.
        var most = held
        let until = Date().addingTimeInterval(1.5)
        while Date() < until, server.server.openStreams == streams {
            most = max(most, ServerSockets(port: server.port).sendQueued)
            usleep(50_000)
        }
        XCTAssertLessThan(most / streams, 200 * 1024, "bytes a stream in the kernel, at most")

        waitUntil("the stalled streams are closed (\(server.server.openStreams) open)", timeout: 15) { server.server.openStreams == 0 }
        waitUntil("their sockets are gone, not closing with their bytes (\(ServerSockets(port: server.port).closing) closing)", timeout: 5) {
            ServerSockets(port: server.port).closing == 0
        }
        XCTAssertEqual(sockets.count, streams)

        // Bytes the kernel holds and the client never takes, with nothing more to send: stalled too.
        let quiet = try Socket(port: server.port, receiveBuffer: 4096)
        try server.client.send("GET", "/api/firehose/\(id)/events", headers: [:], body: nil, on: quiet)
        waitUntil("the stream is open", timeout: 5) { server.server.openStreams == 1 }
        XCTAssertEqual(try server.client.post("/api/firehose/\(id)/inputs/emit", json: "4").status, 200)
        waitUntil("the quiet stalled stream is closed", timeout: 15) { server.server.openStreams == 0 }
    }

    func testAStreamThatIsMerelyQuietIsNotStalled() throws {
        let server = try TestServer {
            $0.stalledStreamTimeout = .seconds(1)
            $0.heartbeat = .milliseconds(200)
        }
        let id = try server.createSession()
        let stream = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        XCTAssertEqual(try stream.next(2).count, 2)
        // Three seconds of heartbeats only, read as they come: the stream stays.
        let until = Date().addingTimeInterval(3)
        while Date() < until { XCTAssertEqual(try stream.nextComment(timeout: 2), " keep-alive") }
        XCTAssertEqual(server.server.openStreams, 1)
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap").status, 200)
        XCTAssertEqual(try stream.next(2).map(\.event), ["backgroundColor", "buttonTitle"])
    }
}

/// The server's TCP sockets on `port` as the kernel lists them (`/proc/net/tcp`).
struct ServerSockets {
    /// Bytes queued to send on all of them (sent and unacknowledged, or unsent).
    let sendQueued: Int
    /// Those closing (FIN-WAIT-1, CLOSING, LAST-ACK) with bytes still queued: memory a reset would have freed.
    let closing: Int

    init(port: UInt16) {
        // Read to its end: a /proc file says it is empty, and a one-page read stops short.
        let text = String(decoding: FileHandle(forReadingAtPath: "/proc/net/tcp")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        let local = String(format: ":%04X", port)
        var queued = 0, closing = 0
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 4, fields[1].hasSuffix(local) else { continue }
            let queues = fields[4].split(separator: ":")
            let sending = Int(queues.first ?? "0", radix: 16) ?? 0
            queued += sending
            if ["04", "0B", "09"].contains(String(fields[3])), sending > 0 { closing += 1 }
        }
        sendQueued = queued
        self.closing = closing
    }
}
