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
