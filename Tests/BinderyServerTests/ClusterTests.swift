import BinderyLoopback
import BinderyPostgres
import Foundation
import Synchronization
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Several `bindery serve` processes on one PostgreSQL database, as a
/// cluster runs them: a todo list changed through any node reaches the
/// streams on every node in one order, concurrent writers converge, a lost
/// listening connection or a change past NOTIFY's 8,000 bytes loses nothing,
/// and a session whose node died is made again on another.
final class ClusterTests: XCTestCase {
    private var database = ""

    override func setUpWithError() throws {
        database = try TestPostgres.freshDatabase()
    }

    private func node() throws -> ServerProcess {
        try ServerProcess(
            ServerProcess.binderyExecutable,
            arguments: [
                "serve", "--port", "0", "--database", database, "--log-level", "warning",
                "--public-directory", TestServer.publicDirectory.path, "--session-save-interval", "100",
            ])
    }

    /// A todo session on `list` through `node`: its id.
    private func todos(_ node: ServerProcess, list: String = "shared") throws -> String {
        let response = try HTTPClient(port: node.port).post("/api/todos", json: #"{"list":"\#(list)"}"#)
        XCTAssertEqual(response.status, 201, response.text)
        return try XCTUnwrap(response.json()["id"] as? String)
    }

    private func add(_ title: String, via node: ServerProcess, session: String) throws {
        let response = try HTTPClient(port: node.port).post("/api/todos/\(session)/inputs/add", json: "\"\(title)\"")
        XCTAssertEqual(response.status, 200, response.text)
    }

    /// The titles a stream's `items` events make, applied in order as a client applies them.
    private final class ListReader {
        private let stream: SSEClient
        private(set) var items: [[String: Any]] = []
        init(_ stream: SSEClient) { self.stream = stream }

        var titles: [String] { items.map { $0["title"] as? String ?? "?" } }

        /// Reads until `done(titles)` or `seconds` pass; whether it was met.
        func read(until done: ([String]) -> Bool, seconds: TimeInterval = 10) throws -> Bool {
            try readItems(until: { _ in done(self.titles) }, seconds: seconds)
        }

        /// Reads until `done(items)` or `seconds` pass; whether it was met.
        func readItems(until done: ([[String: Any]]) -> Bool, seconds: TimeInterval = 10) throws -> Bool {
            let deadline = Date() + seconds
            while !done(items) {
                guard Date() < deadline, let event = try stream.next(timeout: max(0.1, deadline.timeIntervalSinceNow)) else { return false }
                guard event.event == "items" else { continue }
                let value = try JSONSerialization.jsonObject(with: Data(event.data.utf8))
                if let whole = value as? [[String: Any]] {
                    items = whole
                } else if let changes = (value as? [String: Any])?["bindery.changes"] as? [[String: Any]] {
                    for change in changes {
                        switch change["op"] as? String {
                        case "insert": items.insert(change["item"] as! [String: Any], at: change["index"] as! Int)
                        case "update": items[change["index"] as! Int] = change["item"] as! [String: Any]
                        case "remove": items.remove(at: change["index"] as! Int)
                        case "move": items.insert(items.remove(at: change["from"] as! Int), at: change["to"] as! Int)
                        default: XCTFail("unknown change \(change)")
                        }
                    }
                }
            }
            return true
        }
    }

    private func reader(_ node: ServerProcess, _ session: String) throws -> ListReader {
        ListReader(try SSEClient(port: node.port, path: "/api/todos/\(session)/events"))
    }

    /// The list as the database holds it.
    private func stored(_ list: String = "shared") throws -> [String] {
        try PostgresConnection(url: database).execute("SELECT title FROM todo WHERE list = $1 ORDER BY position, id", [.text(list)]).map { $0[0].text ?? "" }
    }

    func testAnInputThroughOneNodeReachesStreamsOnTheOthersInOneOrder() throws {
        let nodes = try (0..<3).map { _ in try node() }
        let sessions = try nodes.map { try todos($0) }
        let readers = try [1, 2].map { try reader(nodes[$0], sessions[$0]) }
        let titles = (0..<20).map { "item \($0)" }
        for title in titles { try add(title, via: nodes[0], session: sessions[0]) }
        for reader in readers {
            XCTAssertTrue(try reader.read { $0.count == titles.count }, "got \(reader.titles)")
            XCTAssertEqual(reader.titles, titles)
        }
        XCTAssertEqual(try stored(), titles)
    }

    func testConcurrentWritersThroughEveryNodeConvergeToOneList() throws {
        let nodes = try (0..<3).map { _ in try node() }
        let sessions = try nodes.map { try todos($0) }
        let readers = try (0..<3).map { try reader(nodes[$0], sessions[$0]) }
        // Two writers per node, at once: adds, and moves of what they added to the top.
        let failures = Mutex(0)
        let ports = nodes.map(\.port)
        DispatchQueue.concurrentPerform(iterations: 6) { writer in
            let session = sessions[writer % 3]
            let client = HTTPClient(port: ports[writer % 3])
            for index in 0..<15 {
                do {
                    let title = "w\(writer)-\(index)"
                    guard try client.post("/api/todos/\(session)/inputs/add", json: "\"\(title)\"").status == 200 else { throw CocoaError(.featureUnsupported) }
                    if index % 5 == 4 {
                        let items = try XCTUnwrap((try client.get("/api/todos/\(session)").json()["outputs"] as? [String: Any])?["items"] as? [[String: Any]])
                        if let id = items.first(where: { $0["title"] as? String == title })?["id"] as? Int {
                            guard try client.post("/api/todos/\(session)/inputs/move", json: #"{"id":\#(id),"to":0}"#).status == 200 else {
                                throw CocoaError(.featureUnsupported)
                            }
                        }
                    }
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, 0)
        let expected = try stored()
        XCTAssertEqual(expected.count, 90)
        XCTAssertEqual(Set(expected).count, 90, "every add once")
        for (index, reader) in readers.enumerated() {
            XCTAssertTrue(try reader.read { $0 == expected }, "node \(index)'s stream ended as \(reader.titles), the database holds \(expected)")
            let outputs = try XCTUnwrap(try HTTPClient(port: nodes[index].port).get("/api/todos/\(sessions[index])").json()["outputs"] as? [String: Any])
            XCTAssertEqual((outputs["items"] as? [[String: Any]])?.map { $0["title"] as? String ?? "" }, expected, "node \(index)")
        }
    }

    func testAListenerWhoseConnectionIsTerminatedLosesNoUpdate() throws {
        let nodes = try (0..<2).map { _ in try node() }
        let sessions = try nodes.map { try todos($0) }
        let reader = try reader(nodes[1], sessions[1])
        try add("before", via: nodes[0], session: sessions[0])
        XCTAssertTrue(try reader.read { $0 == ["before"] })
        let admin = try PostgresConnection(url: database)
        var titles = ["before"]
        for round in 0..<3 {
            // Both nodes listen (again); then their listening connections end and a change is made at once, before they listen again.
            let listening = "FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"
            let deadline = Date() + 10
            while Date() < deadline, try admin.execute("SELECT pid \(listening)").count < 2 { usleep(20_000) }
            let ended = try admin.execute("SELECT pg_terminate_backend(pid) \(listening)")
            XCTAssertEqual(ended.count, 2, "two nodes listening")
            let title = "while away \(round)"
            try add(title, via: nodes[0], session: sessions[0])
            titles.append(title)
            XCTAssertTrue(try reader.read { $0 == titles }, "node 1 has \(reader.titles)")
        }
    }

    func testAChangeLargerThanNotifyAllowsReachesTheOtherNodes() throws {
        let nodes = try (0..<2).map { _ in try node() }
        let sessions = try nodes.map { try todos($0) }
        let long = String(repeating: "x", count: 190)
        for index in 0..<60 { try add("\(index) \(long)", via: nodes[0], session: sessions[0]) }
        let reader = try reader(nodes[1], sessions[1])
        XCTAssertTrue(try reader.read { $0.count == 60 })
        // One change of 60 updates: about 15 KB, past NOTIFY's 8,000 bytes.
        XCTAssertEqual(try HTTPClient(port: nodes[0].port).post("/api/todos/\(sessions[0])/inputs/toggleAll").status, 200)
        let payload = try PostgresConnection(url: database).execute(#"SELECT max(length(payload)) FROM bindery_change"#).first?[0].int ?? 0
        XCTAssertGreaterThan(payload, 8_000)
        XCTAssertTrue(try reader.readItems(until: { $0.allSatisfy { $0["done"] as? Bool == true } }), "node 1 did not get the change")
    }

    func testASessionWhoseNodeWasKilledIsMadeAgainOnAnother() throws {
        let first = try node()
        let client = HTTPClient(port: first.port)
        let simple = try XCTUnwrap(try client.post("/api/simple").json()["id"] as? String)
        for _ in 0..<2 { XCTAssertEqual(try client.post("/api/simple/\(simple)/inputs/buttonTap").status, 200) }
        let color = try XCTUnwrap((try client.get("/api/simple/\(simple)").json()["outputs"] as? [String: Any])?["backgroundColor"] as? String)
        // Saved within the save interval (100 ms here); then the node dies.
        let admin = try PostgresConnection(url: database)
        let deadline = Date() + 10
        while Date() < deadline,
            (try admin.execute("SELECT state FROM bindery_session WHERE id = $1", [.text(simple)]).first?[0].bytes).map({
                String(decoding: $0, as: UTF8.self).contains("2")
            }) != true
        {
            usleep(20_000)
        }
        first.send(SIGKILL)
        _ = first.waitForExit(timeout: 10)

        let second = try node()
        let response = try HTTPClient(port: second.port).get("/api/simple/\(simple)")
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertEqual((try response.json()["outputs"] as? [String: Any])?["backgroundColor"] as? String, color)
    }

    func testANodeLetsGoOfASessionAnotherNodeClaimedAndItsStreamReconnects() throws {
        let first = try node()
        let second = try node()
        let simple = try XCTUnwrap(try HTTPClient(port: first.port).post("/api/simple").json()["id"] as? String)
        let stream = try SSEClient(port: first.port, path: "/api/simple/\(simple)/events")
        XCTAssertNotNil(try stream.next(timeout: 5))
        // Wait until the first node has saved it (made sessions are saved within the save interval).
        let admin = try PostgresConnection(url: database)
        let deadline = Date() + 10
        while Date() < deadline, try admin.execute("SELECT 1 FROM bindery_session WHERE id = $1", [.text(simple)]).isEmpty { usleep(20_000) }
        // Its requests now reach the second node (as nginx sends them when the first was away): it claims the session.
        XCTAssertEqual(try HTTPClient(port: second.port).post("/api/simple/\(simple)/inputs/buttonTap").status, 200)
        // The first node lets go: its stream ends without bindery.end, so that the client reconnects.
        var events: [String] = []
        var ended = false
        let until = Date() + 10
        while Date() < until {
            do {
                guard let event = try stream.next(timeout: 0.5) else {
                    ended = true
                    break
                }
                events.append(event.event)
            } catch {
                if "\(error)".contains("timeout") { continue }
                ended = true
                break
            }
        }
        XCTAssertTrue(ended, "the first node's stream went on: \(events)")
        XCTAssertFalse(events.contains("bindery.end"), "a moved session is not ended: \(events)")
        let metrics = try HTTPClient(port: first.port).get("/metrics").text
        XCTAssertTrue(
            metrics.contains(#"bindery_sessions{view_model="simple"} 0"#),
            "the first node still holds it: \(metrics.split(separator: "\n").filter { $0.hasPrefix("bindery_sessions") })")
        // What the second node does with it is what is stored, whatever the first held.
        XCTAssertEqual(try HTTPClient(port: second.port).post("/api/simple/\(simple)/inputs/buttonTap").status, 200)
        let state = {
            (try? admin.execute("SELECT state FROM bindery_session WHERE id = $1", [.text(simple)]).first?[0].bytes).flatMap { $0 }.map {
                String(decoding: $0, as: UTF8.self)
            }
        }
        let saved = Date() + 10
        while Date() < saved, state()?.contains("2") != true { usleep(20_000) }
        XCTAssertEqual(state()?.contains("2"), true, "stored: \(state() ?? "nothing")")
    }

    // MARK: A shared ViewModel: one instance for the cluster

    /// The example board's limit (`BoardViewModel.maxNotes`): the tests post fewer, so that none is let go.
    private enum BoardLimit { static let notes = 100 }

    private func node(logging level: String, lease: Int = 2, answerTimeout: Int = 15) throws -> ServerProcess {
        try ServerProcess(
            ServerProcess.binderyExecutable,
            arguments: [
                "serve", "--port", "0", "--database", database, "--log-level", level,
                "--public-directory", TestServer.publicDirectory.path, "--shared-lease", "\(lease)",
                "--shared-answer-timeout", "\(answerTimeout)",
            ])
    }

    /// The board's session through `node` (the one shared session): its id.
    private func board(_ node: ServerProcess) throws -> String {
        let response = try HTTPClient(port: node.port).post("/api/board")
        XCTAssertEqual(response.status, 201, response.text)
        return try XCTUnwrap(response.json()["id"] as? String)
    }

    private func notes(_ node: ServerProcess, _ board: String) throws -> [String] {
        let outputs = try XCTUnwrap(try HTTPClient(port: node.port).get("/api/board/\(board)").json()["outputs"] as? [String: Any])
        return try XCTUnwrap(outputs["notes"] as? [String])
    }

    /// The board's notes through `node` once they are `expected` (a node other
    /// than the one an input went through has them a moment later), or after 10 s.
    private func eventually(_ node: ServerProcess, _ board: String, _ expected: [String]) throws -> [String] {
        _ = BinderyLoopback.eventually(every: .milliseconds(50)) { (try? notes(node, board)) == expected }
        return try notes(node, board)
    }

    /// Reads a board stream's `notes` until `done`; the events' ids and the notes.
    private func readNotes(_ stream: SSEClient, until done: ([String]) -> Bool) throws -> (ids: [String], notes: [String]) {
        var ids: [String] = []
        var notes: [String] = []
        let deadline = Date() + 15
        while !done(notes), Date() < deadline {
            guard let event = try? stream.next(timeout: 1) else { continue }
            ids.append(event.id ?? "")
            if event.event == "notes" { notes = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String]) }
        }
        return (ids, notes)
    }

    func testASharedViewModelRunsOnceAndEveryNodeStreamsItsEventsWithTheSameIds() throws {
        let nodes = try (0..<3).map { _ in try node(logging: "info") }
        let ids = try nodes.map { try self.board($0) }
        XCTAssertEqual(Set(ids).count, 1, "one session for the cluster: \(ids)")
        let board = ids[0]
        let streams = try nodes[1...].map { try SSEClient(port: $0.port, path: "/api/board/\(board)/events") }
        let posted = (0..<9).map { "note \($0)" }
        for (index, note) in posted.enumerated() {
            XCTAssertEqual(try HTTPClient(port: nodes[index % 3].port).post("/api/board/\(board)/inputs/post", json: "\"\(note)\"").status, 200)
        }
        let read = try streams.map { stream in try readNotes(stream) { $0 == posted } }
        XCTAssertEqual(read[0].notes, posted)
        XCTAssertEqual(read[1].notes, posted)
        XCTAssertEqual(read[0].ids.last, read[1].ids.last, "an event has one id on every node")
        for node in nodes { XCTAssertEqual(try eventually(node, board, posted), posted) }
        let owners = nodes.filter { $0.standardError.contains("shared session owned here") }
        XCTAssertEqual(owners.count, 1, "one instance in the cluster")
    }

    func testWhenTheOwnerIsKilledAnotherTakesOverAndNoAcknowledgedInputIsLost() throws {
        let first = try node(logging: "info")
        let board = try self.board(first)  // the first node to ask owns it
        let others = try (0..<2).map { _ in try node(logging: "info") }
        for other in others { XCTAssertEqual(try self.board(other), board) }
        let ports = ([first] + others).map(\.port)
        let firstPID = first.pid
        // Three writers, one per node, post until told to stop; the first node is killed midway.
        let acknowledged = Mutex<[String]>([])
        let stop = Atomic<Bool>(false)
        let killed = Atomic<Bool>(false)
        let afterKill = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { writer in
            if writer == 3 {
                // Once notes went through the owner's node, it dies; the writers stop once
                // notes went through after a new owner took over (the lease runs 2 s here).
                _ = BinderyLoopback.eventually(within: .seconds(20), every: .milliseconds(10)) {
                    acknowledged.withLock { $0.filter { $0.hasPrefix("w0-") }.count } >= 3
                }
                kill(firstPID, SIGKILL)
                killed.store(true, ordering: .relaxed)
                _ = BinderyLoopback.eventually(within: .seconds(20), every: .milliseconds(10)) { afterKill.load(ordering: .relaxed) >= 6 }
                stop.store(true, ordering: .relaxed)
                return
            }
            let client = HTTPClient(port: ports[writer])
            var index = 0
            // At most 30 each: the board keeps its last 100 notes, and every acknowledged one must be there.
            while !stop.load(ordering: .relaxed), index < 30 {
                let note = "w\(writer)-\(index)"
                index += 1
                let wasKilled = killed.load(ordering: .relaxed)
                if (try? client.post("/api/board/\(board)/inputs/post", json: "\"\(note)\"").status) == 200 {
                    acknowledged.withLock { $0.append(note) }
                    if wasKilled { afterKill.add(1, ordering: .relaxed) }
                } else if writer == 0 {
                    return  // its node is gone
                }
                usleep(50_000)  // a steady stream of posts across the kill and the takeover
            }
        }
        let acked = acknowledged.withLock { $0 }
        XCTAssertTrue(acked.contains { $0.hasPrefix("w0-") }, "posts went through the owner before it died")
        XCTAssertGreaterThan(afterKill.load(ordering: .relaxed), 0, "posts went through after it died")
        let survivors = others
        XCTAssertTrue(survivors.contains { $0.standardError.contains("shared session owned here") }, "another node took over")
        // Every acknowledged note is there (the board keeps its last 100), the same on both nodes.
        // (A survivor other than the one a note went through has it a moment later.)
        let deadline = Date() + 10
        while Date() < deadline, !Set(acked).isSubset(of: (try? notes(survivors[0], board)) ?? []) { usleep(50_000) }
        let kept = try notes(survivors[0], board)
        XCTAssertEqual(try eventually(survivors[1], board, kept), kept)
        XCTAssertLessThanOrEqual(kept.count, BoardLimit.notes)
        XCTAssertEqual(Set(acked).subtracting(kept), [], "acknowledged notes lost")
    }

    func testAPausedOwnerCannotWriteOnceAnotherTookOver() throws {
        let first = try node(logging: "info")
        let board = try self.board(first)
        let second = try node(logging: "info")
        XCTAssertEqual(try self.board(second), board)
        XCTAssertEqual(try HTTPClient(port: first.port).post("/api/board/\(board)/inputs/post", json: #""before the pause""#).status, 200)
        // The owner stops (a long GC pause, a partition): its lease runs out and the second node takes over.
        first.send(SIGSTOP)
        XCTAssertEqual(try HTTPClient(port: second.port).post("/api/board/\(board)/inputs/post", json: #""while it slept""#).status, 200)
        XCTAssertTrue(second.standardError.contains("shared session owned here"))
        first.send(SIGCONT)
        // Woken, the old owner learns it lost its lease and writes nothing; it answers from its replica.
        let deadline = Date() + 10
        while Date() < deadline, !first.standardError.contains("shared session no longer owned here") { usleep(50_000) }
        XCTAssertTrue(first.standardError.contains("shared session no longer owned here"), first.standardError)
        XCTAssertEqual(try HTTPClient(port: first.port).post("/api/board/\(board)/inputs/post", json: #""after""#).status, 200)
        // The node an input went through answers once its replica has it; the others follow a moment later.
        let expected = ["before the pause", "while it slept", "after"]
        XCTAssertEqual(try notes(first, board), expected)
        let until = Date() + 10
        while Date() < until, (try? notes(second, board)) != expected { usleep(50_000) }
        XCTAssertEqual(try notes(second, board), expected)
        let epochs = try PostgresConnection(url: database).execute("SELECT epoch FROM bindery_lease WHERE view_model = 'board'").first?[0].int
        XCTAssertEqual(epochs, 2)
    }

    func testAnInputNoOwnerAnswersIsRefusedAtTheAnswerTimeoutAndAppliesLater() throws {
        // A lease longer than the test: while the owner is paused no node takes over.
        let first = try node(logging: "info", lease: 30, answerTimeout: 1)
        let board = try self.board(first)
        let second = try node(logging: "info", lease: 30, answerTimeout: 1)
        XCTAssertEqual(try self.board(second), board)
        XCTAssertEqual(try HTTPClient(port: second.port).post("/api/board/\(board)/inputs/post", json: #""answered""#).status, 200)
        first.send(SIGSTOP)
        let sent = Date()
        let refused = try HTTPClient(port: second.port).post("/api/board/\(board)/inputs/post", json: #""unanswered""#)
        let waited = Date().timeIntervalSince(sent)
        first.send(SIGCONT)
        XCTAssertEqual(refused.status, 503, refused.text)
        XCTAssertEqual(try refused.json()["error"] as? String, "store_unavailable", refused.text)
        XCTAssertGreaterThanOrEqual(waited, 1, "answered before --shared-answer-timeout")
        XCTAssertLessThan(waited, 10, "the wait is the answer timeout's, not the lease's")
        // The input stayed in the log: the owner, woken, applies it, and every node shows it.
        XCTAssertEqual(try eventually(first, board, ["answered", "unanswered"]), ["answered", "unanswered"])
        XCTAssertEqual(try eventually(second, board, ["answered", "unanswered"]), ["answered", "unanswered"])
    }

    func testAnOwnerWhoseLeaseRanOutCannotCommitWhatItDoesNext() throws {
        let first = try node(logging: "info")
        let board = try self.board(first)
        let second = try node(logging: "info")
        XCTAssertEqual(try self.board(second), board)
        XCTAssertEqual(try HTTPClient(port: first.port).post("/api/board/\(board)/inputs/post", json: #""one""#).status, 200)
        // The first node's lease runs out without its knowing (a partition from the database, say)...
        let admin = try PostgresConnection(url: database)
        try admin.execute("UPDATE bindery_lease SET expires_at = now() - interval '1 second' WHERE view_model = 'board'")
        // ...and before its next renewal, an input reaches both owners: the second node takes the lease as it sends it.
        XCTAssertEqual(try HTTPClient(port: second.port).post("/api/board/\(board)/inputs/post", json: #""two""#).status, 200)
        // The first node applied it too, but its commit is fenced: it stops owning at once, not at its next renewal.
        let deadline = Date() + 10
        while Date() < deadline, !first.standardError.contains("shared session no longer owned here") { usleep(20_000) }
        XCTAssertTrue(
            first.standardError.contains("another node holds its lease") || first.standardError.contains("its lease was not renewed"), first.standardError)
        XCTAssertEqual(try admin.execute("SELECT epoch FROM bindery_lease WHERE view_model = 'board'").first?[0].int, 2)
        XCTAssertEqual(try admin.execute("SELECT epoch FROM bindery_shared WHERE view_model = 'board'").first?[0].int, 2, "only the new owner's commits land")
        let until = Date() + 10
        while Date() < until, (try? notes(first, board)) != ["one", "two"] { usleep(50_000) }
        XCTAssertEqual(try notes(first, board), ["one", "two"])
        XCTAssertEqual(try notes(second, board), ["one", "two"])
    }

    func testAStreamOfASharedViewModelResumesOnAnotherNodeWithoutGapOrDuplicate() throws {
        let first = try node(logging: "warning")
        let board = try self.board(first)
        let second = try node(logging: "warning")
        XCTAssertEqual(try self.board(second), board)
        var stream: SSEClient? = try SSEClient(port: first.port, path: "/api/board/\(board)/events")
        for note in ["a", "b"] { XCTAssertEqual(try HTTPClient(port: first.port).post("/api/board/\(board)/inputs/post", json: "\"\(note)\"").status, 200) }
        var seen: [(id: UInt64, event: String, data: String)] = []
        while !seen.contains(where: { $0.event == "posted" && $0.data == #""b""# }), let event = try? stream?.next(timeout: 5) {
            seen.append((UInt64(event.id ?? "") ?? 0, event.event, event.data))
        }
        let last = try XCTUnwrap(seen.last?.id)
        // The first node's stream is gone (its node, say); meanwhile two more notes.
        stream = nil
        for note in ["c", "d"] { XCTAssertEqual(try HTTPClient(port: second.port).post("/api/board/\(board)/inputs/post", json: "\"\(note)\"").status, 200) }
        // The client reconnects to the other node with the last id it saw.
        let resumed = try SSEClient(port: second.port, path: "/api/board/\(board)/events", headers: ["Last-Event-ID": "\(last)"])
        var after: [(id: UInt64, event: String, data: String)] = []
        while !after.contains(where: { $0.event == "posted" && $0.data == #""d""# }), let event = try? resumed.next(timeout: 5) {
            after.append((UInt64(event.id ?? "") ?? 0, event.event, event.data))
        }
        XCTAssertFalse(after.contains { $0.event == "bindery.reset" }, "no reset: \(after)")
        // Nothing it had, nothing twice: ids after the last it saw (drivers superseded since may be skipped, as on one node).
        XCTAssertTrue(after.allSatisfy { $0.id > last }, "\(after)")
        XCTAssertEqual(Set(after.map(\.id)).count, after.count, "\(after)")
        XCTAssertEqual(after.filter { $0.event == "posted" }.map(\.data), [#""c""#, #""d""#], "every signal after the last id, once")
        XCTAssertEqual(after.last(where: { $0.event == "notes" })?.data, #"["a","b","c","d"]"#)
    }
}
