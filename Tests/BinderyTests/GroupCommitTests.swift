import Bindery
import BinderyDatabase
import BinderyLoopback
import Foundation
import XCTest

/// Writes that arrive together are committed together on the writer thread:
/// fewer transactions than writes, every write there once its completion
/// runs, a write that fails undoes only itself, and no caller waits.
final class GroupCommitTests: XCTestCase {
    func testConcurrentWritesShareCommitsAndEachIsThereWhenItCompletes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("group-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try BinderyDatabase.open(path: path)
        try database.write { db in try db.execute(sql: "CREATE TABLE note (writer INTEGER, number INTEGER)") }
        let batches = Tally()
        let commits = GroupCommit(database, endOfBatch: { batches.add() })
        let completed = Tally(), found = Tally()
        let done = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: 16) { writer in
            for number in 0..<50 {
                done.enter()
                commits.write(
                    { db in
                        try db.execute(sql: "INSERT INTO note VALUES (?, ?)", arguments: [writer, number])
                        return db.lastInsertedRowID
                    },
                    completion: { result in
                        completed.add()
                        // Once it completes, the row is committed: another connection reads it.
                        if let rowID = try? result.get(),
                            (try? database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note WHERE rowid = ?", arguments: [rowID]) }) == 1
                        {
                            found.add()
                        }
                        done.leave()
                    })
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note") }, 800)
        XCTAssertEqual(completed.value, 800)
        XCTAssertEqual(found.value, 800)
        XCTAssertLessThanOrEqual(batches.value, 800)
    }

    func testWritesThatArriveDuringACommitGoInTheNextOneTogetherAndNoCallerWaits() throws {
        let database = try BinderyDatabase.inMemory()
        try database.write { db in try db.execute(sql: "CREATE TABLE note (number INTEGER)") }
        let batches = Tally(), completed = Tally()
        let commits = GroupCommit(database, endOfBatch: { batches.add() })
        // The first write holds its transaction open (a slow disk) until fifteen others wait behind it.
        let release = DispatchSemaphore(value: 0)
        commits.write(
            { db in
                release.wait()
                try db.execute(sql: "INSERT INTO note VALUES (0)")
            }, completion: { _ in completed.add() })
        waitUntil("the first write commits") { commits.state.isCommitting && commits.state.waiting == 0 }
        // This thread is the caller of every write: were any to wait for the commit, it would not get past here.
        for number in 1...15 {
            commits.write({ db in try db.execute(sql: "INSERT INTO note VALUES (\(number))") }, completion: { _ in completed.add() })
        }
        XCTAssertEqual(commits.state.waiting, 15)
        XCTAssertEqual(completed.value, 0, "nothing completes before its commit")
        release.signal()
        waitUntil("all written") { completed.value == 16 && !commits.state.isCommitting }
        XCTAssertEqual(batches.value, 2, "the first alone, then the fifteen that waited, together")
        XCTAssertEqual(try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note") }, 16)
    }

    func testAWriteThatThrowsUndoesOnlyItself() throws {
        let database = try BinderyDatabase.inMemory()
        try database.write { db in try db.execute(sql: "CREATE TABLE note (text TEXT NOT NULL)") }
        let commits = GroupCommit(database)
        struct Refused: Error {}
        let outcomes = Locked<[String]>([])
        let done = DispatchGroup()
        done.enter()
        commits.write(
            { db in
                try db.execute(sql: "INSERT INTO note VALUES ('half')")
                throw Refused()
            },
            completion: { result in
                outcomes.withLock { $0.append((try? result.get()) == nil ? "refused" : "written") }
                done.leave()
            })
        done.enter()
        commits.write(
            { db in try db.execute(sql: "INSERT INTO note VALUES ('whole')") },
            completion: { result in
                outcomes.withLock { $0.append((try? result.get()) == nil ? "refused" : "written") }
                done.leave()
            })
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(outcomes.withLock { $0 }, ["refused", "written"], "in arrival order")
        XCTAssertEqual(try database.read { db in try String.fetchAll(db, sql: "SELECT text FROM note") }, ["whole"])
    }

    func testAFailedTransactionFailsEveryWriteInItAndTheNextBatchGoesOn() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("group-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try BinderyDatabase.open(path: path)
        try database.write { db in try db.execute(sql: "CREATE TABLE note (number INTEGER)") }
        let commits = GroupCommit(database)
        // Another process holds the write lock: the batch cannot begin its transaction.
        let other = try DatabaseQueue(path: path)
        let holding = DispatchSemaphore(value: 0), letGo = DispatchSemaphore(value: 0)
        other.asyncWriteWithoutTransaction { db in
            try? db.inTransaction(.immediate) {
                holding.signal()
                letGo.wait()
                return .rollback
            }
        }
        holding.wait()
        /// Writes `number`; whether it was written.
        func insert(_ number: Int) -> Bool {
            let outcome = DispatchSemaphore(value: 0)
            let written = Locked(false)
            commits.write({ db in try db.execute(sql: "INSERT INTO note VALUES (\(number))") }) { result in
                written.withLock { $0 = (try? result.get()) != nil }
                outcome.signal()
            }
            XCTAssertEqual(outcome.wait(timeout: .now() + 10), .success, "write \(number) completes")
            return written.withLock { $0 }
        }
        XCTAssertFalse(insert(1), "the transaction could not begin")
        letGo.signal()
        try other.inDatabase { _ in }  // after the other's transaction: its queue is serial
        XCTAssertTrue(insert(2), "the next batch")
        XCTAssertEqual(try database.read { db in try Int.fetchAll(db, sql: "SELECT number FROM note") }, [2])
    }

    /// In an input's turn a write holds the input's answer until it has
    /// committed; a failure of the database's (not one the write threw)
    /// fails the answer, saying what it was.
    func testAWriteInAnInputsTurnHoldsItsAnswerAndTheDatabasesFailureFailsIt() throws {
        let database = try BinderyDatabase.inMemory()
        try database.write { db in try db.execute(sql: "CREATE TABLE note (number INTEGER)") }
        let commits = GroupCommit(database)
        struct Refused: Error {}
        /// What the input the write is made in is answered with: nil for its snapshot.
        func answer(_ write: @escaping (Database) throws -> Void) throws -> BinderyError? {
            let turn = InputTurn()
            turn.begin()
            let completed = Locked(false)
            commits.write(write) { _ in completed.withLock { $0 = true } }
            let pending = try XCTUnwrap(turn.end(), "the write holds the answer")
            let answered = DispatchSemaphore(value: 0)
            let failure = Locked<BinderyError?>(nil)
            pending.whenReleased { error in
                XCTAssertTrue(completed.withLock { $0 }, "answered after the write's completion")
                failure.withLock { $0 = error }
                answered.signal()
            }
            XCTAssertEqual(answered.wait(timeout: .now() + 10), .success)
            return failure.withLock { $0 }
        }
        XCTAssertNil(try answer { db in try db.execute(sql: "INSERT INTO note VALUES (1)") })
        XCTAssertNil(try answer { _ in throw Refused() }, "the write's own refusal is its ViewModel's to tell")
        let full = try answer { _ in throw DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full") }
        XCTAssertEqual(full?.code, .storageFull)
        XCTAssertEqual(full?.applied, false)
        XCTAssertFalse(full?.message.contains("database or disk") ?? true, "the database's words are for the log")
        XCTAssertEqual(full?.cause?.contains("database or disk is full"), true)
        XCTAssertEqual(try answer { _ in throw DatabaseError(resultCode: .SQLITE_BUSY) }?.code, .databaseUnavailable)
    }

    private func waitUntil(_ what: String, _ condition: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(eventually(every: .milliseconds(1), condition), what, file: file, line: line)
    }
}

private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
