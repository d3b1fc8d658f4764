import Bindery

extension PostgresDatabase {
    /// Runs `body` in one transaction on this database's queue and returns what
    /// it returned, suspending the caller (no thread waits but the queue's); a
    /// failure of the database's (gone, restarting, full) throws as
    /// `BinderyError.postgresFailure` says, libpq's words kept for the log only.
    public func inTransaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        let result: Result<T, any Error> = await withCheckedContinuation { continuation in
            async { connection in
                continuation.resume(returning: Result { try connection.get().transaction(body) })
            }
        }
        do {
            return try result.get()
        } catch {
            throw BinderyError.postgresFailure(error) ?? error
        }
    }
}
