import BinderyLoopback
import Foundation
import XCTest

@testable import Bindery

#if canImport(Glibc)
    import Glibc
#endif

/// What a 2xx promises: the todo list's changes are on disk before their
/// inputs are answered, so `kill -9` at any moment loses none of them.
final class DurabilityTests: XCTestCase {
    func testEveryAnsweredInputSurvivesSIGKILLInOrderAndNothingElseDoes() throws {
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("durability-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) } }
        var generator = SystemRandomNumberGenerator()

        for round in 0..<2 {
            let list = "round\(round)"
            let server = try ServerProcess.serve(database: database)
            let client = HTTPClient(port: server.port)
            let created = try client.post("/api/todos", json: #"{"list": "\#(list)"}"#)
            let id = try XCTUnwrap(created.json()["id"] as? String, created.text)

            // Inputs one after another, each answered before the next; the server
            // is killed after a random number of answers, with the next one in flight.
            let killAfter = Int.random(in: 100...300, using: &generator)
            let answered = Locked<[String]>([])
            let sender = Thread {
                for index in 0..<1_000 {
                    let title = "item-\(index)"
                    guard let response = try? client.post("/api/todos/\(id)/inputs/add", json: "\"\(title)\""),
                        (200..<300).contains(response.status)
                    else { return }
                    answered.withLock { $0.append(title) }
                }
            }
            sender.start()
            let deadline = Date() + 60
            while answered.withLock({ $0.count }) < killAfter, Date() < deadline { usleep(200) }
            server.send(SIGKILL)
            XCTAssertNotNil(server.waitForExit(timeout: 10))
            while sender.isExecuting, Date() < deadline { usleep(1_000) }
            let acknowledged = answered.withLock { $0 }
            XCTAssertGreaterThanOrEqual(acknowledged.count, killAfter, "round \(round)")

            let restarted = try ServerProcess.serve(database: database)
            let kept = try restarted.todoTitles(list)
            // Every answered input, in order; at most the one in flight after them.
            XCTAssertEqual(Array(kept.prefix(acknowledged.count)), acknowledged, "round \(round)")
            XCTAssertLessThanOrEqual(kept.count, acknowledged.count + 1, "round \(round): \(kept.suffix(3))")
            if kept.count > acknowledged.count { XCTAssertEqual(kept.last, "item-\(acknowledged.count)") }
            restarted.send(SIGTERM)
            XCTAssertEqual(restarted.waitForExit(timeout: 10), 0)
        }
    }

    /// Eight writers at once, their adds committed together (group commit):
    /// after `kill -9`, every add any of them was answered for is there, each
    /// writer's in its order.
    func testConcurrentWritersLoseNoAnsweredInputToSIGKILL() throws {
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("durability-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) } }
        let server = try ServerProcess.serve(database: database)
        let writers = 8
        let ids = try (0..<writers).map { _ in
            try XCTUnwrap(try HTTPClient(port: server.port).post("/api/todos", json: #"{"list": "together"}"#).json()["id"] as? String)
        }
        let answered = Locked<[[String]]>(Array(repeating: [], count: writers))
        let port = server.port
        let senders = (0..<writers).map { writer in
            Thread {
                let client = HTTPClient(port: port)
                for index in 0..<1_000 {
                    let title = "w\(writer)-\(index)"
                    guard let response = try? client.post("/api/todos/\(ids[writer])/inputs/add", json: "\"\(title)\""),
                        (200..<300).contains(response.status)
                    else { return }
                    answered.withLock { $0[writer].append(title) }
                }
            }
        }
        senders.forEach { $0.start() }
        let deadline = Date() + 60
        while answered.withLock({ $0.map(\.count).reduce(0, +) }) < 400, Date() < deadline { usleep(200) }
        server.send(SIGKILL)
        XCTAssertNotNil(server.waitForExit(timeout: 10))
        while senders.contains(where: \.isExecuting), Date() < deadline { usleep(1_000) }
        let acknowledged = answered.withLock { $0 }

        let restarted = try ServerProcess.serve(database: database)
        let kept = try restarted.todoTitles("together")
        for writer in 0..<writers {
            let mine = kept.filter { $0.hasPrefix("w\(writer)-") }
            XCTAssertEqual(Array(mine.prefix(acknowledged[writer].count)), acknowledged[writer], "writer \(writer)")
            XCTAssertLessThanOrEqual(mine.count, acknowledged[writer].count + 1, "writer \(writer): at most the one in flight")
        }
        restarted.send(SIGTERM)
        XCTAssertEqual(restarted.waitForExit(timeout: 10), 0)
    }
}
