import Bindery
import Foundation
import GRDB

/// The browsers' sign-ins in the app's SQLite database, table `bindery_sign_in`
/// (`SQLiteSchema`): what `Application.keepSignIns(in:)` keeps them in. Each
/// call is one transaction on GRDB's own threads; a write that fails for the
/// database's sake throws its `BinderyError` (`storage_full`, `database_unavailable`).
package final class SQLiteSignInStore: SignInStore {
    private let database: any DatabaseWriter

    /// The store in `database`, brought up to date.
    package init(database: any DatabaseWriter) throws {
        self.database = database
        try SQLiteSchema.migrate(database)
    }

    package func insert(_ record: SignInRecord) async throws {
        let attributes = try JSONEncoder().encode(record.identity.attributes)
        try await database.writeAnswerably { db in
            try db.execute(
                sql: """
                    INSERT INTO bindery_sign_in (token_hash, identity, identity_attributes, created_at, last_used_at, kind, name)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    record.tokenHash, record.identity.id, attributes, record.createdAt.timeIntervalSince1970, record.lastUsedAt.timeIntervalSince1970,
                    record.kind.rawValue, record.name,
                ])
        }
    }

    package func find(tokenHash: String) async throws -> SignInRecord? {
        try await database.readAnswerably { db in
            try Row.fetchOne(db, sql: "SELECT * FROM bindery_sign_in WHERE token_hash = ?", arguments: [tokenHash]).map(Self.record)
        }
    }

    package func touch(tokenHash: String, at: Date) async throws {
        try await database.writeAnswerably { db in
            try db.execute(
                sql: "UPDATE bindery_sign_in SET last_used_at = ? WHERE token_hash = ?", arguments: [at.timeIntervalSince1970, tokenHash])
        }
    }

    package func delete(tokenHash: String) async throws {
        try await database.writeAnswerably { db in try db.execute(sql: "DELETE FROM bindery_sign_in WHERE token_hash = ?", arguments: [tokenHash]) }
    }

    package func deleteAll(identity: String) async throws -> [String] {
        try await database.writeAnswerably { db in
            let hashes = try String.fetchAll(db, sql: "SELECT token_hash FROM bindery_sign_in WHERE identity = ?", arguments: [identity])
            try db.execute(sql: "DELETE FROM bindery_sign_in WHERE identity = ?", arguments: [identity])
            return hashes
        }
    }

    package func deleteExpired(createdBefore: Date, usedBefore: Date) async throws {
        try await database.writeAnswerably { db in
            try db.execute(
                sql: "DELETE FROM bindery_sign_in WHERE created_at < ? OR last_used_at < ?",
                arguments: [createdBefore.timeIntervalSince1970, usedBefore.timeIntervalSince1970])
        }
    }

    package func list(identity: String, kind: SignInRecord.Kind) async throws -> [SignInRecord] {
        try await database.readAnswerably { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM bindery_sign_in WHERE identity = ? AND kind = ? ORDER BY created_at DESC",
                arguments: [identity, kind.rawValue]
            ).map(Self.record)
        }
    }

    private static func record(_ row: Row) -> SignInRecord {
        let attributes = (row["identity_attributes"] as Data?).flatMap { try? JSONDecoder().decode([String: String].self, from: $0) } ?? [:]
        return SignInRecord(
            tokenHash: row["token_hash"], identity: Identity(row["identity"], attributes: attributes),
            createdAt: Date(timeIntervalSince1970: row["created_at"]), lastUsedAt: Date(timeIntervalSince1970: row["last_used_at"]),
            kind: SignInRecord.Kind(rawValue: row["kind"] ?? "browser") ?? .browser, name: row["name"])
    }

}

extension Application {
    /// Keeps the browsers' sign-ins in the app's SQLite database (`bindery_sign_in`).
    public func keepSignIns(in database: any DatabaseWriter) throws {
        keepSignIns(in: try SQLiteSignInStore(database: database))
    }
}
