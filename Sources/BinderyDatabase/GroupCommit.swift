import Bindery
import Foundation
import GRDB

/// Durable writes committed together, on the database's own writer thread:
/// writes that arrive while a transaction is committing go in the next one,
/// so that one commit (one fsync, with `synchronous = FULL`) makes a whole
/// batch durable rather than one write. Each write's completion runs only
/// once the transaction holding it has committed, so an input that holds its
/// answer for the completion (`AnswerHold`) is on disk before it is answered,
/// and its caller's thread never waits for the disk.
///
/// A batch is the writes waiting when the writer gets to it, run in arrival
/// order in one transaction, each in a savepoint of its own: a write that
/// throws undoes only itself. After the commit each write's completion runs,
/// in the same order, before any write of the next batch. Between batches
/// the writer serves whoever else writes to the database (the session store).
///
/// A write made for an input that came with a client's key
/// (`Idempotency-Key`) records the input's receipt in its savepoint (table
/// `bindery_input_receipt`, kept `receiptLifetime`): the same input applied
/// again (after a crash, a repeat the session no longer remembers) finds it
/// there, and its write is undone and answered as a repeat.
///
/// A write made in an input's turn holds the input's answer until its
/// completion has run (`AnswerHold`), so the input is answered once the write
/// is durable; if the database failed it (a full disk, a locked or failing
/// file: `BinderyError.sqliteFailure`), the input is answered with that
/// failure, not 200.
///
/// Thread safety: `write` may be called from any thread and returns at once;
/// writes and completions run on the database's writer thread.
public final class GroupCommit: Sendable {
    private let database: any DatabaseWriter
    private let endOfBatch: @Sendable () -> Void
    /// The inputs' receipts (touched on the writer thread only).
    private let receipts: Receipts
    /// The writes waiting for the next transaction, and whether a batch is
    /// queued on the writer or committing (new writes wait for the next).
    private let queue = Locked<(waiting: [Entry], isCommitting: Bool)>(([], false))

    private struct Entry {
        /// The receipt the write records, if its input came with a client's key.
        let receipt: InputReceipt?
        /// Runs the write in the open transaction, keeping its outcome.
        let run: (Database) -> Void
        /// Once the transaction is over: the write's outcome, or the transaction's failure.
        let finish: (Error?) -> Void
    }

    /// One write's outcome: set by its run, read by its finish, both on the writer thread.
    private final class Outcome<T> {
        var result: Result<T, Error>?
    }

    /// Writes to `database`; `endOfBatch` runs after each batch, committed or
    /// not, before the batch's completions.
    public init(_ database: any DatabaseWriter, receiptLifetime: Duration = .seconds(86_400), endOfBatch: @escaping @Sendable () -> Void = {}) {
        self.database = database
        self.endOfBatch = endOfBatch
        receipts = Receipts(lifetime: receiptLifetime)
    }

    /// Writes waiting for the next transaction, and whether one is queued or committing (tests).
    package var state: (waiting: Int, isCommitting: Bool) {
        queue.withLock { ($0.waiting.count, $0.isCommitting) }
    }

    /// Runs `write` in the next transaction and, once that transaction has
    /// committed, `completion` with its value; with its error if it threw
    /// (its changes undone) or the transaction failed.
    public func write<T>(_ write: @escaping (Database) throws -> T, completion: @escaping (Result<T, Error>) -> Void) {
        let outcome = Outcome<T>()
        let answer = AnswerHold.take()
        let receipt = InputReceipt.take()
        let entry = Entry(
            receipt: receipt,
            run: { db in
                do {
                    try db.inSavepoint {
                        if let receipt { try Receipts.record(receipt, in: db) }
                        outcome.result = .success(try write(db))
                        return .commit
                    }
                } catch {
                    outcome.result = .failure(error)
                }
            },
            finish: { failure in
                let result = failure.map { .failure($0) } ?? outcome.result!
                completion(result)
                if case .failure(let error) = result, let failing = error as? BinderyError ?? BinderyError.sqliteFailure(error) {
                    answer?.release(failing: failing)
                } else {
                    answer?.release()
                }
            })
        let start = queue.withLock { queue -> Bool in
            queue.waiting.append(entry)
            defer { queue.isCommitting = true }
            return !queue.isCommitting
        }
        if start { commitNext() }
    }

    /// Commits what waits, on the writer; then the next batch if more came meanwhile.
    private func commitNext() {
        database.asyncWriteWithoutTransaction { [self] db in
            let batch = queue.withLock { queue -> [Entry] in
                defer { queue.waiting.removeAll(keepingCapacity: true) }
                return queue.waiting
            }
            commit(batch, db)
            let more = queue.withLock { queue -> Bool in
                if queue.waiting.isEmpty { queue.isCommitting = false }
                return queue.isCommitting
            }
            if more { commitNext() }
        }
    }

    private func commit(_ batch: [Entry], _ db: Database) {
        var failure: Error?
        do {
            try db.inTransaction(.immediate) {
                if batch.contains(where: { $0.receipt != nil }) { try receipts.prepare(db) }
                for entry in batch { entry.run(db) }
                return .commit
            }
        } catch {
            failure = error
        }
        endOfBatch()
        for entry in batch { entry.finish(failure) }
    }
}

/// The receipts of inputs whose writes committed, in the database the writes
/// go to (`InputReceipt`). Touched on the writer thread only.
private final class Receipts: @unchecked Sendable {
    private let lifetime: Duration
    private var isPrepared = false
    private var batches = 0

    init(lifetime: Duration) {
        self.lifetime = lifetime
    }

    /// Makes the table the first time (where its migration has not run), and forgets receipts past their lifetime now and then.
    func prepare(_ db: Database) throws {
        if !isPrepared {
            for statement in SQLiteSchema.receipts { try db.execute(sql: statement) }
            isPrepared = true
        }
        batches += 1
        if batches % 1_000 == 1 {
            try db.execute(
                sql: "DELETE FROM bindery_input_receipt WHERE at < ?", arguments: [Date().timeIntervalSince1970 - Double(lifetime.components.seconds)])
        }
    }

    /// Records `receipt`; `BinderyError.Code.alreadyApplied` if it is there already.
    static func record(_ receipt: InputReceipt, in db: Database) throws {
        do {
            try db.execute(
                sql: "INSERT INTO bindery_input_receipt (session, key, at) VALUES (?, ?, ?)",
                arguments: [receipt.session, receipt.key, Date().timeIntervalSince1970])
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            throw BinderyError(.alreadyApplied, "this input was applied before", applied: true)
        }
    }
}
