import Bindery
import Foundation

/// The browsers' sign-ins and the scripts' tokens in a cluster's PostgreSQL
/// database (table `bindery_sign_in`, as `SQLiteSignInStore` keeps them in
/// SQLite), so that a browser signed in through one node is known to every
/// other. A sign-out is announced on `signOutsChannel` in its transaction, so
/// that the other nodes forget it at once rather than after their lookups'
/// few seconds (`SignInStore.signedOutElsewhere`), and end their live
/// sessions of an identity signed out everywhere.
///
/// Thread safety: every method may be called from any thread; the statements
/// run on this store's own connection and queue, the caller suspended.
package final class PostgresSignInStore: SignInStore {
    /// Where sign-outs are announced: `"<node> token <hash>"` or `"<node> identity <id>"`.
    package static let signOutsChannel = "bindery_sign_outs"
    private let database: PostgresDatabase
    private let node: String
    private let handlers = Locked<[@Sendable (SignOut) -> Void]>([])

    /// The store in the database at `url` for the process `node`, its tables
    /// made if missing; it hears the other nodes' sign-outs through `changes`
    /// (whose listener must start after this).
    package init(url: String, node: String, listeningWith changes: ChangeLog) throws {
        self.node = node
        database = PostgresDatabase(url: url, name: "sign-ins")
        try PostgresSchema.migrate(database)
        changes.listen(on: Self.signOutsChannel) { [weak self] payload in self?.heard(payload) }
    }

    private func heard(_ payload: String) {
        let parts = payload.split(separator: " ", maxSplits: 2).map(String.init)
        guard parts.count == 3, parts[0] != node else { return }
        let signOut: SignOut
        switch parts[1] {
        case "token": signOut = .token(hash: parts[2])
        case "identity": signOut = .identity(parts[2])
        default: return
        }
        for handler in handlers.withLock({ $0 }) { handler(signOut) }
    }

    package func signedOutElsewhere(_ handler: @escaping @Sendable (SignOut) -> Void) {
        handlers.withLock { $0.append(handler) }
    }

    private static let columns = "token_hash, identity, identity_attributes, created_at, last_used_at, kind, name"

    package func insert(_ record: SignInRecord) async throws {
        let attributes = try JSONEncoder().encode(record.identity.attributes)
        try await database.inTransaction { db in
            try db.execute(
                "INSERT INTO bindery_sign_in (\(Self.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                [
                    .text(record.tokenHash), .text(record.identity.id), .bytes(attributes), .double(record.createdAt.timeIntervalSince1970),
                    .double(record.lastUsedAt.timeIntervalSince1970), .text(record.kind.rawValue), record.name.map(PostgresValue.text) ?? .null,
                ])
        }
    }

    package func find(tokenHash: String) async throws -> SignInRecord? {
        try await database.inTransaction { db in
            try db.execute("SELECT \(Self.columns) FROM bindery_sign_in WHERE token_hash = $1", [.text(tokenHash)]).first.map(Self.record)
        }
    }

    package func touch(tokenHash: String, at: Date) async throws {
        try await database.inTransaction { db in
            try db.execute("UPDATE bindery_sign_in SET last_used_at = $1 WHERE token_hash = $2", [.double(at.timeIntervalSince1970), .text(tokenHash)])
        }
    }

    package func delete(tokenHash: String) async throws {
        let node = node
        try await database.inTransaction { db in
            try db.execute("DELETE FROM bindery_sign_in WHERE token_hash = $1", [.text(tokenHash)])
            try db.execute("SELECT pg_notify($1, $2)", [.text(Self.signOutsChannel), .text("\(node) token \(tokenHash)")])
        }
    }

    package func deleteAll(identity: String) async throws -> [String] {
        let node = node
        return try await database.inTransaction { db in
            let hashes = try db.execute("DELETE FROM bindery_sign_in WHERE identity = $1 RETURNING token_hash", [.text(identity)]).compactMap { $0[0].text }
            try db.execute("SELECT pg_notify($1, $2)", [.text(Self.signOutsChannel), .text("\(node) identity \(identity)")])
            return hashes
        }
    }

    package func deleteExpired(createdBefore: Date, usedBefore: Date) async throws {
        try await database.inTransaction { db in
            try db.execute(
                "DELETE FROM bindery_sign_in WHERE created_at < $1 OR last_used_at < $2",
                [.double(createdBefore.timeIntervalSince1970), .double(usedBefore.timeIntervalSince1970)])
        }
    }

    package func list(identity: String, kind: SignInRecord.Kind) async throws -> [SignInRecord] {
        try await database.inTransaction { db in
            try db.execute(
                "SELECT \(Self.columns) FROM bindery_sign_in WHERE identity = $1 AND kind = $2 ORDER BY created_at DESC",
                [.text(identity), .text(kind.rawValue)]
            ).map(Self.record)
        }
    }

    private static func record(_ row: [PostgresValue]) throws -> SignInRecord {
        let attributes = try row[2].bytes.map { try JSONDecoder().decode([String: String].self, from: $0) } ?? [:]
        return SignInRecord(
            tokenHash: row[0].text ?? "", identity: Identity(row[1].text ?? "", attributes: attributes),
            createdAt: Date(timeIntervalSince1970: row[3].double ?? 0), lastUsedAt: Date(timeIntervalSince1970: row[4].double ?? 0),
            kind: SignInRecord.Kind(rawValue: row[5].text ?? "") ?? .browser, name: row[6].text)
    }
}

/// Accounts with passwords in a cluster's PostgreSQL database (table
/// `bindery_account`): `Accounts(store: PostgresAccountStore(url:))`, so that
/// an account registered through one node signs in through any.
///
/// Thread safety: every method may be called from any thread.
public final class PostgresAccountStore: AccountStore {
    private let database: PostgresDatabase

    /// The store in the database at `url`, its tables made if missing.
    public init(url: String) throws {
        database = PostgresDatabase(url: url, name: "accounts")
        try PostgresSchema.migrate(database)
    }

    public func insert(_ account: AccountRecord) async throws -> Bool {
        try await database.inTransaction { db in
            try !db.execute(
                """
                INSERT INTO bindery_account (id, login, password_hash, created_at) VALUES ($1, $2, $3, $4)
                ON CONFLICT (login) DO NOTHING RETURNING id
                """,
                [.text(account.id), .text(account.login), .text(account.passwordHash), .double(account.createdAt.timeIntervalSince1970)]
            ).isEmpty
        }
    }

    public func find(login: String) async throws -> AccountRecord? {
        try await database.inTransaction { db in
            try db.execute("SELECT id, login, password_hash, created_at FROM bindery_account WHERE login = $1", [.text(login)]).first.map { row in
                AccountRecord(
                    id: row[0].text ?? "", login: row[1].text ?? "", passwordHash: row[2].text ?? "", createdAt: Date(timeIntervalSince1970: row[3].double ?? 0)
                )
            }
        }
    }

    public func setPasswordHash(_ hash: String, ofAccount id: String) async throws {
        try await database.inTransaction { db in
            try db.execute("UPDATE bindery_account SET password_hash = $1 WHERE id = $2", [.text(hash), .text(id)])
        }
    }
}
