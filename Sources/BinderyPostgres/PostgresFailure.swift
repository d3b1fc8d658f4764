import Bindery

extension BinderyError {
    /// How an input whose PostgreSQL transaction failed for the database's
    /// sake is answered: 503 `database_unavailable` for a server that is away,
    /// restarting, refusing connections or asking for a retry (serialization),
    /// with `applied` false, or unknown if the connection was lost as the
    /// transaction committed; 507 `storage_full` for a full disk. Nil for a
    /// failure of the transaction itself (a constraint, an error its body
    /// threw), which is its ViewModel's to report. libpq's words (with the
    /// server's address) go to `cause`, for the log, never to the client.
    public static func postgresFailure(_ error: Error) -> BinderyError? {
        guard let error = error as? PostgresError else { return nil }
        let cause = "\(error)"
        if error.atCommit {
            return BinderyError(
                .databaseUnavailable,
                "the database was lost as the input was committed: it may or may not have been applied; "
                    + "send it again with the same Idempotency-Key",
                cause: cause)
        }
        let state = error.sqlState ?? ""
        if state == "53100" {
            return BinderyError(
                .storageFull, "the database's disk is full: the input was not applied; send it again once there is space",
                applied: false, cause: cause)
        }
        // 08: connection exceptions; 53: resources; 57P01–03: shut down, crashed, starting;
        // 40001, 40P01: serialization failure, deadlock; 25006: a read-only server (a standby).
        let away = ["08", "53"].contains(state.prefix(2)) || ["57P01", "57P02", "57P03", "40001", "40P01", "25006"].contains(state)
        guard error.connectionLost || away else { return nil }
        return BinderyError(
            .databaseUnavailable, "the database cannot be reached now: the input was not applied; send it again",
            applied: false, cause: cause)
    }
}
