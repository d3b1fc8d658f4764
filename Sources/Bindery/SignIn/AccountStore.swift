import Foundation

/// An account as the app's database keeps it: its id (the identity's), its
/// login (normalized), its password's hash (never the password) and when it
/// was made.
public struct AccountRecord: Sendable, Equatable {
    public let id: String
    public let login: String
    public var passwordHash: String
    public let createdAt: Date

    public init(id: String, login: String, passwordHash: String, createdAt: Date) {
        self.id = id
        self.login = login
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }
}

/// Where accounts with passwords are kept (`BinderyAccounts`' `Accounts` hashes
/// and checks; this only keeps): the app's SQLite file, or a cluster's
/// PostgreSQL database (`BinderyPostgres`' `PostgresAccountStore`). Each call is
/// one transaction, durable when it returns; a failure of the database throws
/// (a `BinderyError`, as any write's).
public protocol AccountStore: Sendable {
    /// Adds `account`; false, and nothing added, if its login is taken.
    func insert(_ account: AccountRecord) async throws -> Bool
    /// The account of `login` (normalized), if there is one.
    func find(login: String) async throws -> AccountRecord?
    /// Replaces the password hash of the account `id`.
    func setPasswordHash(_ hash: String, ofAccount id: String) async throws
}
