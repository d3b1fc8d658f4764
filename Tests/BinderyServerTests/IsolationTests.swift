import Bindery
import BinderyLoopback
import Foundation
import XCTest

@testable import BinderyServer

/// A session busy in its ViewModel must not hold up anyone else.
final class IsolationTests: XCTestCase {
    /// An input that blocks its session until the test opens the gate.
    final class StallViewModel {
        let wait = PublishRelay<Void>()
        let done: Driver<Int>
        init(gate: DispatchSemaphore, entered: DispatchSemaphore) {
            done = wait.map { _ -> Int in
                entered.signal()
                gate.wait()
                gate.signal()
                return 1
            }.asDriver(onErrorJustReturn: 0)
        }
    }

    func testSessionsBlockedInTheirViewModelDoNotStallOtherSessions() throws {
        let server = try TestServer { $0.threads = 2 }
        let gate = DispatchSemaphore(value: 0), entered = DispatchSemaphore(value: 0)
        defer { gate.signal() }  // whatever happens, nothing stays blocked
        server.server.application.register("stall") { _ in StallViewModel(gate: gate, entered: entered) }
        let stalled = try (0..<4).map { _ in try server.createSession("stall") }
        let other = try server.createSession()

        let threadsBefore = ProcessStats.current.threads

        // Each blocked input holds a worker of the session pool; the requests are
        // written on sockets, so the client side holds no thread.
        let sockets = try stalled.map { id in
            let socket = try Socket(port: server.port)
            try server.client.send("POST", "/api/stall/\(id)/inputs/wait", headers: [:], body: Data(), on: socket)
            return socket
        }
        for _ in stalled { XCTAssertEqual(entered.wait(timeout: .now() + 5), .success, "every stalled input reached its ViewModel") }

        // As many sessions are stuck in their ViewModel as the pool has workers.
        let response = try server.client.post("/api/simple/\(other)/inputs/buttonTap")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(try server.client.get("/api/simple/\(other)/outputs/backgroundColor").text, "\"blue\"")
        let threadsDuring = ProcessStats.current.threads
        XCTAssertLessThanOrEqual(threadsDuring - threadsBefore, 4, "4 blocked ViewModels took \(threadsDuring - threadsBefore) threads more")

        gate.signal()
        for socket in sockets {
            XCTAssertEqual(try server.client.readHead(socket).0, 200, "the stalled inputs finish once released")
        }
    }

    func testRequestsQueuedBehindBlockedSessionsHoldNoThreads() throws {
        let server = try TestServer()
        let gate = DispatchSemaphore(value: 0), entered = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        server.server.application.register("stall") { _ in StallViewModel(gate: gate, entered: entered) }
        let stalled = try (0..<2).map { _ in try server.createSession("stall") }
        let other = try server.createSession()
        let threadsBefore = ProcessStats.current.threads

        // Requests are written on sockets nobody reads from: the client side needs no thread.
        var sockets: [Socket] = []
        for id in stalled {
            for _ in 0..<40 {
                let socket = try Socket(port: server.port)
                try server.client.send("POST", "/api/stall/\(id)/inputs/wait", headers: [:], body: Data(), on: socket)
                sockets.append(socket)
            }
        }
        for _ in stalled { XCTAssertEqual(entered.wait(timeout: .now() + 5), .success) }
        // Every request has reached the server and waits for its session: what a
        // thread per request would have cost is spent by now.
        waitUntil("the 80 requests are in (\(server.server.requestsInProgress))", timeout: 10) { server.server.requestsInProgress == 80 }
        XCTAssertEqual(try server.client.post("/api/simple/\(other)/inputs/buttonTap").status, 200)
        let threadsDuring = ProcessStats.current.threads
        XCTAssertLessThanOrEqual(threadsDuring - threadsBefore, 4, "80 requests waiting on 2 blocked sessions took \(threadsDuring - threadsBefore) threads")
    }

    func testStoppingWhileASessionIsBusyAnswers503AndStopsCleanly() throws {
        let server = try TestServer { $0.shutdownGrace = .milliseconds(300) }
        let gate = DispatchSemaphore(value: 0), entered = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        server.server.application.register("stall") { _ in StallViewModel(gate: gate, entered: entered) }
        let id = try server.createSession("stall")
        let answer = Locked<HTTPResponse?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            let response = try? HTTPClient(port: server.port).post("/api/stall/\(id)/inputs/wait")
            answer.withLock { $0 = response }
            finished.signal()
        }.start()
        XCTAssertEqual(entered.wait(timeout: .now() + 5), .success)

        server.server.stop()  // waits its grace period, then answers what is still in flight
        XCTAssertEqual(finished.wait(timeout: .now() + 5), .success)
        let response = answer.withLock { $0 }
        XCTAssertEqual(response?.status, 503)
        XCTAssertEqual(try response?.json()["error"] as? String, "shutting_down")
        gate.signal()  // the session finishes after the daemon is gone: nothing may touch it
    }
}
