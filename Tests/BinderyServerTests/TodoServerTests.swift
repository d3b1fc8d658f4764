import Bindery
import BinderyDatabase
import BinderyLoopback
import Foundation
import XCTest

/// The todo list over HTTP: one list per id, shared by every session of it.
final class TodoServerTests: XCTestCase {
    func testTwoStreamsOnOneListSeeEachOthersChangesAndAnotherListDoesNot() throws {
        let server = try TestServer()
        func create(_ list: String) throws -> String {
            let response = try server.client.post("/api/todos", json: #"{"list": "\#(list)"}"#)
            XCTAssertEqual(response.status, 201, response.text)
            return try XCTUnwrap(response.json()["id"] as? String)
        }
        let first = try create("groceries"), second = try create("groceries"), other = try create("work")
        let streams = try [first, second].map { try SSEClient(port: server.port, path: "/api/todos/\($0)/events") }
        let otherStream = try SSEClient(port: server.port, path: "/api/todos/\(other)/events")
        func items(_ stream: SSEClient) throws -> String? {
            while let event = try stream.next() { if event.event == "items" { return event.data } }
            return nil
        }
        for stream in streams + [otherStream] { XCTAssertEqual(try items(stream), "[]") }

        XCTAssertEqual(try server.client.post("/api/todos/\(first)/inputs/add", json: #""milk""#).status, 200)
        for stream in streams { XCTAssertTrue(try items(stream)?.contains(#""title":"milk""#) == true) }
        XCTAssertEqual(try server.client.post("/api/todos/\(second)/inputs/toggle", json: "1").status, 200)
        for stream in streams { XCTAssertTrue(try items(stream)?.contains(#""done":true"#) == true) }

        // The other list heard nothing: its next items are its own first add.
        XCTAssertEqual(try server.client.post("/api/todos/\(other)/inputs/add", json: #""report""#).status, 200)
        let otherItems = try items(otherStream)
        XCTAssertTrue(otherItems?.contains("report") == true && otherItems?.contains("milk") == false, otherItems ?? "")
    }

    func testAStreamGetsEachChangeNotTheListAgainHoweverLongTheList() throws {
        let server = try TestServer()
        let session = try XCTUnwrap(try server.client.post("/api/todos", json: #"{"list": "long"}"#).json()["id"] as? String)
        // Eight writers at once: their adds share commits (a thousand one after another took 5–9 s under the sanitizers).
        let statuses = Locked([Int]())
        DispatchQueue.concurrentPerform(iterations: 8) { writer in
            for index in stride(from: writer, to: 1_000, by: 8) {
                let status = (try? server.client.post("/api/todos/\(session)/inputs/add", json: #""item \#(index)""#).status) ?? 0
                statuses.withLock { $0.append(status) }
            }
        }
        XCTAssertEqual(statuses.withLock { $0 }, Array(repeating: 200, count: 1_000))
        let stream = try SSEClient(port: server.port, path: "/api/todos/\(session)/events")
        func items() throws -> String {
            while let event = try stream.next() { if event.event == "items" { return event.data } }
            XCTFail("no items")
            return ""
        }
        let whole = try items()
        XCTAssertGreaterThan(whole.utf8.count, 60_000, "on connect: the whole list")
        let before = try XCTUnwrap(try server.client.get("/api/todos/\(session)").json()["lastEventId"] as? Int)
        XCTAssertEqual(try server.client.post("/api/todos/\(session)/inputs/add", json: #""one more""#).status, 200)
        let added = try items()
        XCTAssertEqual(
            added, #"{"bindery.changes":[{"index":1000,"item":{"done":false,"id":1001,"list":"long","position":1000,"title":"one more"},"op":"insert"}]}"#)
        XCTAssertEqual(try server.client.post("/api/todos/\(session)/inputs/toggle", json: "500").status, 200)
        XCTAssertLessThan(try items().utf8.count, 200, "a toggle is the one item")
        // A stream resuming from before both changes gets both, in order: not the list again.
        let behind = try SSEClient(port: server.port, path: "/api/todos/\(session)/events", headers: ["Last-Event-ID": "\(before)"])
        var resumed: [String] = []
        while resumed.count < 2, let event = try behind.next() { if event.event == "items" { resumed.append(event.data) } }
        XCTAssertEqual(resumed.first, added)
        XCTAssertTrue(resumed.allSatisfy { $0.hasPrefix(#"{"bindery.changes":"#) && $0.utf8.count < 200 }, "\(resumed)")
    }

    func testInputsWaitingForTheirCommitHoldNoThreadAndAreAnsweredOnceItIsDone() throws {
        let server = try TestServer()
        // More sessions than the pool has threads, however far it grows: were each
        // input's turn to wait for the commit, every thread would be held.
        let writers = ExecutorPool.shared.maxThreads + 4
        let sessions = try (0..<writers).map { _ in
            try XCTUnwrap(try server.client.post("/api/todos", json: #"{"list": "slow"}"#).json()["id"] as? String)
        }
        let other = try server.createSession()
        let writer = try StalledWriter(server)
        defer { writer.letGo() }

        let sent = DispatchSemaphore(value: 0)
        let answers = Locked([Int: HTTPResponse]())
        let answered = DispatchGroup()
        for (index, session) in sessions.enumerated() {
            answered.enter()
            Thread {
                defer { answered.leave() }
                guard let socket = try? Socket(port: server.port) else {
                    sent.signal()
                    return
                }
                try? server.client.send(
                    "POST", "/api/todos/\(session)/inputs/add", headers: ["Content-Type": "application/json", "Connection": "close"],
                    body: Data(#""item \#(index)""#.utf8), on: socket)
                _ = sent.signal()
                if let answer = try? server.client.readResponse(socket) { answers.withLock { $0[index] = answer } }
            }.start()
        }
        for _ in sessions { sent.wait() }
        // Once the server has read every add (a request after them is answered), another session's inputs are answered while the commit waits.
        XCTAssertEqual(try server.client.get("/healthz").status, 200)
        for _ in 0..<3 {
            XCTAssertEqual(try server.client.post("/api/simple/\(other)/inputs/buttonTap").status, 200)
        }
        XCTAssertTrue(answers.withLock { $0.isEmpty }, "no add is answered before its commit")

        writer.letGo()
        XCTAssertEqual(answered.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(answers.withLock { $0.values.map(\.status) }, Array(repeating: 200, count: writers))
        let snapshot = try server.client.get("/api/todos/\(sessions[0])")
        XCTAssertEqual(((try snapshot.json()["outputs"] as? [String: Any])?["items"] as? [Any])?.count, writers, snapshot.text)
    }

    func testAnAddWhoseCommitOutlastsTheHeldAnswerTimeoutIs504AndIsWrittenAfterAll() throws {
        let server = try TestServer { $0.runtime.heldAnswerTimeout = .seconds(1) }
        let session = try XCTUnwrap(try server.client.post("/api/todos", json: #"{"list": "stalled"}"#).json()["id"] as? String)
        let writer = try StalledWriter(server)
        defer { writer.letGo() }

        let answer = try server.client.post("/api/todos/\(session)/inputs/add", json: #""late""#)
        XCTAssertEqual(answer.status, 504, answer.text)
        XCTAssertEqual(try answer.json()["error"] as? String, "answer_timeout")
        XCTAssertTrue(answer.text.contains("applied"), answer.text)

        writer.letGo()
        // The write was only late: it commits, and the list has it.
        let deadline = Date().addingTimeInterval(10)
        var count: Int?
        repeat {
            count = ((try server.client.get("/api/todos/\(session)").json()["outputs"] as? [String: Any])?["items"] as? [Any])?.count
        } while count != 1 && Date() < deadline
        XCTAssertEqual(count, 1)
    }

    func testABadListNameIs400() throws {
        let server = try TestServer()
        let response = try server.client.post("/api/todos", json: #"{"list": "no spaces"}"#)
        XCTAssertEqual(response.status, 400, response.text)
        XCTAssertTrue(response.text.contains("list"), response.text)
    }

    func testAStringWithANulIsKeptWholeOrRefusedNeverCutShort() throws {
        let server = try TestServer()
        // In memory, a JSON string keeps every code point it carries.
        let messages = try server.createSession("messages")
        let draft = try server.client.post("/api/messages/\(messages)/inputs/editText", json: #""x\u0000y""#)
        XCTAssertEqual(((try draft.json()["outputs"] as? [String: Any])?["draft"] as? String)?.unicodeScalars.map(\.value), [0x78, 0, 0x79])
        // SQLite's text would end at the NUL: the todo list refuses the title instead of storing "abc" or "".
        let todos = try server.createSession("todos")
        for title in [#""abc\u0000def""#, #""\u0000""#] {
            let answer = try server.client.post("/api/todos/\(todos)/inputs/add", json: title)
            XCTAssertEqual(answer.status, 200, answer.text)
            // A keyed list is not in an input's answer (its change goes down the streams): ask for it.
            XCTAssertNil((try answer.json()["outputs"] as? [String: Any])?["items"], answer.text)
            let snapshot = try server.client.get("/api/todos/\(todos)")
            XCTAssertEqual(((try snapshot.json()["outputs"] as? [String: Any])?["items"] as? [Any])?.count, 0, snapshot.text)
        }
    }
}

/// A slow disk: the app database's writer is busy until `letGo` (once; again is nothing).
final class StalledWriter: @unchecked Sendable {
    private let release = DispatchSemaphore(value: 0)
    private let isLetGo = Locked(false)

    init(_ server: TestServer) throws {
        let busy = DispatchSemaphore(value: 0)
        try server.server.application.services.database().asyncWriteWithoutTransaction { [release] _ in
            busy.signal()
            release.wait()
        }
        busy.wait()
    }

    func letGo() {
        let first = isLetGo.withLock { wasLetGo -> Bool in
            defer { wasLetGo = true }
            return !wasLetGo
        }
        if first { release.signal() }
    }
}
