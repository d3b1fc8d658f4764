import BinderyDatabase
import Foundation
import XCTest

/// Writes that arrive together are committed together: fewer transactions
/// than writes, every write there once its caller returns, and a write that
/// fails undoes only itself.
final class GroupCommitTests: XCTestCase {
    func testConcurrentWritesShareCommitsAndEachIsThereWhenItReturns() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("group-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try BinderyDatabase.open(path: path)
        try database.write { db in try db.execute(sql: "CREATE TABLE note (writer INTEGER, number INTEGER)") }
        let batches = Tally()
        let commits = GroupCommit(database, endOfBatch: { batches.add() })
        let committed = Tally()
        DispatchQueue.concurrentPerform(iterations: 16) { writer in
            for number in 0..<50 {
                let rowID = try? commits.write(
                    { db in
                        try db.execute(sql: "INSERT INTO note VALUES (?, ?)", arguments: [writer, number])
                        return db.lastInsertedRowID
                    }, committed: { _ in committed.add() })
                // Once the call returns, the row is committed: another connection reads it.
                let found = try? database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note WHERE rowid = ?", arguments: [rowID]) }
                XCTAssertEqual(found, 1)
            }
        }
        XCTAssertEqual(try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note") }, 800)
        XCTAssertEqual(committed.value, 800)
        XCTAssertLessThanOrEqual(batches.value, 800)
    }

    func testWritesThatArriveDuringACommitGoInTheNextOneTogether() throws {
        let database = try BinderyDatabase.inMemory()
        try database.write { db in try db.execute(sql: "CREATE TABLE note (number INTEGER)") }
        let batches = Tally()
        let commits = GroupCommit(database, endOfBatch: { batches.add() })
        // The first write holds its transaction open until fifteen others wait behind it.
        let release = DispatchSemaphore(value: 0)
        let first = Thread {
            _ = try? commits.write { db in
                release.wait()
                try db.execute(sql: "INSERT INTO note VALUES (0)")
            }
        }
        first.start()
        waitUntil("the first write commits") { commits.state.isCommitting }
        let others = (1...15).map { (number: Int) in
            Thread { _ = try? commits.write { db in try db.execute(sql: "INSERT INTO note VALUES (\(number))") } }
        }
        others.forEach { $0.start() }
        waitUntil("fifteen writes wait") { commits.state.waiting == 15 }
        release.signal()
        waitUntil("all written") { !commits.state.isCommitting && commits.state.waiting == 0 && batches.value == 2 }
        XCTAssertEqual(batches.value, 2, "the first alone, then the fifteen that waited, together")
        XCTAssertEqual(try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note") }, 16)
    }

    private func waitUntil(_ what: String, _ condition: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(10)
        while !condition(), Date() < deadline { usleep(1_000) }
        XCTAssertTrue(condition(), what, file: file, line: line)
    }

    func testAWriteThatThrowsUndoesOnlyItself() throws {
        let database = try BinderyDatabase.inMemory()
        try database.write { db in try db.execute(sql: "CREATE TABLE note (text TEXT NOT NULL)") }
        let commits = GroupCommit(database)
        struct Refused: Error {}
        XCTAssertThrowsError(
            try commits.write { db in
                try db.execute(sql: "INSERT INTO note VALUES ('half')")
                throw Refused()
            })
        try commits.write { db in try db.execute(sql: "INSERT INTO note VALUES ('whole')") }
        XCTAssertEqual(try database.read { db in try String.fetchAll(db, sql: "SELECT text FROM note") }, ["whole"])
    }
}

private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
