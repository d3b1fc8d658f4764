import Bindery
import BinderyLoopback
import Foundation
import XCTest

@testable import BinderyServer

/// A client that goes away at any stage of a request or a stream leaks nothing:
/// stream admissions, a session's stream count and memory return to where they were.
final class AbortTests: XCTestCase {
    /// An input that blocks its session until the test opens the gate.
    final class GateViewModel {
        let wait = PublishRelay<Void>()
        let passed: Driver<Int>
        init(gate: DispatchSemaphore, entered: DispatchSemaphore) {
            passed = wait.map { _ -> Int in
                entered.signal()
                gate.wait()
                gate.signal()
                return 1
            }.scan(0, accumulator: +).asDriver(onErrorJustReturn: 0)
        }
    }

    private var server: TestServer!
    private let gate = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)

    override func setUpWithError() throws {
        server = try TestServer { $0.heartbeat = .milliseconds(50) }
        let gate = gate, entered = entered
        server.server.application.register("gate") { _ in GateViewModel(gate: gate, entered: entered) }
    }

    override func tearDown() {
        gate.signal()
        server = nil
    }

    /// Writes `text` on a new connection and closes it without reading, once
    /// the server has accepted it (libmicrohttpd cleans up a closed connection
    /// only at its loop's next wake, so its closing is not waited for).
    private func abort(after text: String) throws {
        let accepted = server.server.connectionsAccepted
        let socket = try Socket(port: server.port)
        socket.write(Data(text.utf8))
        waitUntil("the server accepts the connection", timeout: 5) { server.server.connectionsAccepted > accepted }
    }

    func testAbortsWhileSendingHeadersOrBodyLeaveOtherRequestsUntouched() throws {
        let id = try server.createSession()
        for _ in 0..<50 {
            try abort(after: "GET /api/simple/\(id) HTTP/1.1\r\nHost: 127.")
            try abort(
                after: "POST /api/simple/\(id)/inputs/buttonTap HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":")
        }
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap").status, 200)
        XCTAssertEqual(try server.client.get("/api/simple/\(id)/outputs/backgroundColor").text, "\"blue\"")
    }

    func testAbortsWhileTheSessionIsBusyReleaseEverythingOnceItIsFree() throws {
        let id = try server.createSession("gate")
        let session = try server.server.application.session("gate", id: id)
        // The session is stuck in its ViewModel; requests queue behind it.
        let stuck = try Socket(port: server.port)
        try server.client.send("POST", "/api/gate/\(id)/inputs/wait", headers: [:], body: Data(), on: stuck)
        XCTAssertEqual(entered.wait(timeout: .now() + 5), .success)
        for _ in 0..<20 {
            try abort(after: "GET /api/gate/\(id)/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
            try abort(after: "POST /api/gate/\(id)/inputs/wait HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
            try abort(after: "GET /api/gate/\(id) HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        gate.signal()
        waitUntil("every stream admission is given back (\(server.server.openStreams) open)") { server.server.openStreams == 0 }
        waitUntil("the session feeds no stream (\(session.subscriberCount))") { session.subscriberCount == 0 }
        let disposed = server.server.application.disposeIdleSessions(now: .now + .seconds(601))
        XCTAssertGreaterThanOrEqual(disposed, 1, "an aborted stream keeps no session alive")
    }

    func testStreamsClosedByTheirClientsAtEveryMomentGiveBackTheirPlaceAndMemory() throws {
        let id = try server.createSession()
        let session = try server.server.application.session("simple", id: id)
        func burst() throws {
            let swarm = try StreamSwarm(port: server.port, path: "/api/simple/\(id)/events", count: 200)
            // Some close before their answer, some while it is written, some after.
            swarm.run(timeout: 0.02) { _ in false }
            for index in stride(from: 0, to: 200, by: 3) { swarm.close(index) }
            swarm.run(timeout: 10) { $0.streams.allSatisfy { $0.isClosed || $0.events >= 2 } }
            _ = try server.client.post("/api/simple/\(id)/inputs/buttonTap")
            swarm.closeAll()
            waitUntil("admissions back to 0 (\(server.server.openStreams))") { server.server.openStreams == 0 }
            waitUntil("session streams back to 0 (\(session.subscriberCount))") { session.subscriberCount == 0 }
        }
        // The live heap, not RSS: RSS also counts pages the allocator keeps after frees.
        try burst()
        let before = ProcessStats.heapBytesInUse
        for _ in 0..<5 { try burst() }
        // A closed connection's 16 KiB pool goes back when libmicrohttpd next
        // cleans up, a moment after its stream gave back its place: wait for
        // that, and fail on what stays.
        var growth = ProcessStats.heapBytesInUse - before
        let deadline = Date().addingTimeInterval(5)
        while growth >= 256 << 10, Date() < deadline {
            usleep(10_000)
            growth = ProcessStats.heapBytesInUse - before
        }
        XCTAssertLessThan(growth, 256 << 10, "1,000 aborted streams left \(growth / 1024) KiB allocated")
    }
}
