import Foundation

/// Where sessions are kept so that they outlive their process: the app's
/// database (`BinderyDatabase`'s SQLite by default).
///
/// The runtime calls a store from its own queue (`SessionArchive`), one call
/// at a time, never from a request's or a session's thread: an implementation
/// may block on its database.
package protocol SessionStore: Sendable {
    /// The stored session `id`, if there is one.
    func load(id: String) throws -> StoredSession?
    /// The stored shared session of `viewModel`, if there is one.
    func loadShared(viewModel: String) throws -> StoredSession?
    /// Writes `sessions` (replacing what is stored under their ids) and
    /// removes the sessions `deleting`, in one transaction; returns the ids
    /// of those it did not write because another process has claimed them
    /// since (a cluster's store), which this process then lets go.
    @discardableResult
    func save(_ sessions: [StoredSession], deleting: [String]) throws -> Set<String>
    /// Writes `session` as claimed by this process (it is made again here):
    /// from now on, another process's saves of it are refused, and a process
    /// that holds it is told to let it go. By default, a save.
    func claim(_ session: StoredSession) throws
    /// Removes at most `batch` sessions, in one short transaction: those last
    /// seen before `date` first, then the least recently seen beyond `limit`;
    /// returns how many are left, and whether that was all there was to remove.
    func expire(lastSeenBefore date: Date, keepingAtMost limit: Int, batch: Int) throws -> (left: Int, done: Bool)
    /// The app's kept value `key` (`Application.keptRelay`), if stored.
    func loadValue(key: String) throws -> Data?
    /// Writes the app's kept values, in one transaction.
    func saveValues(_ values: [String: Data]) throws
}

extension SessionStore {
    package func claim(_ session: StoredSession) throws {
        try save([session], deleting: [])
    }
}
