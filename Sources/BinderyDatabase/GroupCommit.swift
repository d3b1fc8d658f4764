import Foundation
import GRDB

/// Durable writes committed together: writes that arrive while a transaction
/// is committing go in the next one, so that one commit (one fsync, with
/// `synchronous = FULL`) makes a whole batch durable rather than one write.
/// Each caller still returns only once the transaction holding its write has
/// committed, so an input that writes in its turn is on disk before it is
/// answered.
///
/// The first caller to find no transaction in flight commits the batch that
/// waits (its own write and those that came meanwhile), in arrival order,
/// each in a savepoint of its own: a write that throws undoes only itself.
/// The others wait for it. After the commit, each write's `committed` runs,
/// in the same order, before any write of the next batch.
///
/// Thread safety: `write` may be called from any thread; it blocks its caller
/// until its transaction has committed (a session's pool thread, as a direct
/// write did, but one fsync per batch instead of one each).
public final class GroupCommit: @unchecked Sendable {
    private let database: any DatabaseWriter
    private let endOfBatch: @Sendable () -> Void
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var waiting: [Entry] = []
    private var isCommitting = false

    private final class Entry {
        /// Runs the write in the open transaction, keeping its outcome.
        let run: (Database) -> Void
        /// Once committed: the write's `committed` with its value, if it succeeded.
        let commit: () -> Void
        /// The transaction failed: the write's outcome is `error`.
        let fail: (Error) -> Void
        var isDone = false

        init(run: @escaping (Database) -> Void, commit: @escaping () -> Void, fail: @escaping (Error) -> Void) {
            self.run = run
            self.commit = commit
            self.fail = fail
        }
    }

    /// One write's outcome: set by the committer, read by its caller once the batch is done.
    private final class Outcome<T>: @unchecked Sendable {
        var result: Result<T, Error>?
    }

    /// Writes to `database`; `endOfBatch` runs after each batch, committed or not.
    public init(_ database: any DatabaseWriter, endOfBatch: @escaping @Sendable () -> Void = {}) {
        self.database = database
        self.endOfBatch = endOfBatch
    }

    /// Writes waiting for the next transaction, and whether one is committing (tests).
    package var state: (waiting: Int, isCommitting: Bool) {
        condition.lock()
        defer { condition.unlock() }
        return (waiting.count, isCommitting)
    }

    /// Runs `write` in the next transaction and returns its value once that
    /// transaction has committed, after `committed` has run with it.
    public func write<T>(_ write: @escaping (Database) throws -> T, committed: @escaping (T) -> Void = { _ in }) throws -> T {
        let outcome = Outcome<T>()
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
            commit: { if case .success(let value) = outcome.result { committed(value) } },
            fail: { outcome.result = .failure($0) })
        condition.lock()
        waiting.append(entry)
        while !entry.isDone {
            if isCommitting {
                condition.wait()
                continue
            }
            isCommitting = true
            let batch = waiting
            waiting.removeAll()
            condition.unlock()
            commit(batch)
            condition.lock()
            for done in batch { done.isDone = true }
            isCommitting = false
            condition.broadcast()
        }
        condition.unlock()
        return try outcome.result!.get()
    }

    private func commit(_ batch: [Entry]) {
        defer { endOfBatch() }
        do {
            try database.write { db in
                for entry in batch { entry.run(db) }
            }
        } catch {
            for entry in batch { entry.fail(error) }
            return
        }
        for entry in batch { entry.commit() }
    }
}
