import Bindery
import GRDB

extension BinderyError {
    /// How an input whose SQLite write failed for the database's sake is
    /// answered: 507 `storage_full` for a full disk, 503 `database_unavailable`
    /// for a database that cannot be written now (locked, read-only, an I/O
    /// error); nil for a failure of the write itself (a constraint, an error
    /// the write threw), which is its ViewModel's to report. The database's
    /// own words go to `cause`, for the log, never to the client.
    public static func sqliteFailure(_ error: Error) -> BinderyError? {
        guard let error = error as? DatabaseError else { return nil }
        let cause = "\(error)"
        switch error.resultCode {
        case .SQLITE_FULL:
            return BinderyError(
                .storageFull, "the server's disk is full: the input was not applied; send it again once there is space",
                applied: false, cause: cause)
        case .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_READONLY, .SQLITE_CANTOPEN:
            return BinderyError(
                .databaseUnavailable, "the database cannot be written now: the input was not applied; send it again",
                applied: false, cause: cause)
        case .SQLITE_IOERR, .SQLITE_NOMEM, .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_PROTOCOL, .SQLITE_NOLFS, .SQLITE_PERM:
            // An I/O error as the commit syncs may leave the transaction in the log, to be recovered.
            return BinderyError(
                .databaseUnavailable,
                "the database failed as the input was written: it may or may not have been applied; "
                    + "send it again with the same Idempotency-Key",
                cause: cause)
        default:
            return nil
        }
    }
}

extension DatabaseWriter {
    /// `write(work)`, a failure for the database's sake thrown as Bindery answers it
    /// (`BinderyError.sqliteFailure`: 507, 503), any other (a constraint, the work's own
    /// error) as it was: what a store's writes throw.
    public func writeAnswerably<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await write(work)
        } catch {
            throw BinderyError.sqliteFailure(error) ?? error
        }
    }

    /// `read(work)`, its failures as `writeAnswerably`'s.
    public func readAnswerably<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await read(work)
        } catch {
            throw BinderyError.sqliteFailure(error) ?? error
        }
    }
}
