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
/// A write made in an input's turn holds the input's answer until its
/// completion has run (`AnswerHold`), so the input is answered once the write
/// is durable; if the database failed it (a full disk, a locked or failing
/// file: `BinderyError.sqliteFailure`), the input is answered with that
/// failure, not 200.
///
/// Thread safety: `write` may be called from any thread and returns at once;
/// writes and completions run on the database's writer thread.
public final class GroupCommit: @unchecked Sendable {
    private let database: any DatabaseWriter
    private let endOfBatch: @Sendable () -> Void
    private let lock = NSLock()
    // Guarded by `lock`.
    private var waiting: [Entry] = []
    /// A batch is queued on the writer or committing: new writes wait for the next.
    private var isCommitting = false

    private struct Entry {
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
    public init(_ database: any DatabaseWriter, endOfBatch: @escaping @Sendable () -> Void = {}) {
        self.database = database
        self.endOfBatch = endOfBatch
    }

    /// Writes waiting for the next transaction, and whether one is queued or committing (tests).
    package var state: (waiting: Int, isCommitting: Bool) {
        lock.withLock { (waiting.count, isCommitting) }
    }

    /// Runs `write` in the next transaction and, once that transaction has
    /// committed, `completion` with its value; with its error if it threw
    /// (its changes undone) or the transaction failed.
    public func write<T>(_ write: @escaping (Database) throws -> T, completion: @escaping (Result<T, Error>) -> Void) {
        let outcome = Outcome<T>()
        let answer = AnswerHold.take()
        let entry = Entry(
            run: { db in
                do {
                    try db.inSavepoint {
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
                if case .failure(let error) = result, let storage = BinderyError.sqliteFailure(error) {
                    answer?.release(failing: storage)
                } else {
                    answer?.release()
                }
            })
        let start = lock.withLock { () -> Bool in
            waiting.append(entry)
            defer { isCommitting = true }
            return !isCommitting
        }
        if start { commitNext() }
    }

    /// Commits what waits, on the writer; then the next batch if more came meanwhile.
    private func commitNext() {
        database.asyncWriteWithoutTransaction { [self] db in
            let batch = lock.withLock { () -> [Entry] in
                defer { waiting.removeAll(keepingCapacity: true) }
                return waiting
            }
            commit(batch, db)
            let more = lock.withLock { () -> Bool in
                if waiting.isEmpty { isCommitting = false }
                return isCommitting
            }
            if more { commitNext() }
        }
    }

    private func commit(_ batch: [Entry], _ db: Database) {
        var failure: Error?
        do {
            try db.inTransaction(.immediate) {
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
