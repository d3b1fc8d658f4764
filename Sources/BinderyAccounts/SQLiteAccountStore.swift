import Bindery
import BinderyDatabase
import Foundation
import GRDB

/// Accounts in the app's SQLite database, table `bindery_account` (made by a
/// GRDB migration, applied once): what `Accounts(database:)` keeps them in.
/// Each call is one transaction on GRDB's own threads; a write that fails for
/// the database's sake throws its `BinderyError` (`storage_full`, `database_unavailable`).
package final class SQLiteAccountStore: AccountStore {
    private let database: any DatabaseWriter

    package init(database: any DatabaseWriter) throws {
        self.database = database
        try Self.migrator.migrate(database)
    }

    /// The account table, by GRDB migration (applied once, recorded by name).
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("bindery-account-v1") { db in
            try db.create(table: "bindery_account") { table in
                table.primaryKey("id", .text)
                table.column("login", .text).notNull().unique()
                table.column("password_hash", .text).notNull()
                table.column("created_at", .double).notNull()
            }
        }
        return migrator
    }

    package func insert(_ account: AccountRecord) async throws -> Bool {
        do {
            try await database.write { db in
                try db.execute(
                    sql: "INSERT INTO bindery_account (id, login, password_hash, created_at) VALUES (?, ?, ?, ?)",
                    arguments: [account.id, account.login, account.passwordHash, account.createdAt.timeIntervalSince1970])
            }
            return true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            return false
        } catch {
            throw BinderyError.sqliteFailure(error) ?? error
        }
    }

    package func find(login: String) async throws -> AccountRecord? {
        try await database.readAnswerably { db in
            try Row.fetchOne(db, sql: "SELECT * FROM bindery_account WHERE login = ?", arguments: [login]).map { row in
                AccountRecord(
                    id: row["id"], login: row["login"], passwordHash: row["password_hash"], createdAt: Date(timeIntervalSince1970: row["created_at"]))
            }
        }
    }

    package func setPasswordHash(_ hash: String, ofAccount id: String) async throws {
        try await database.writeAnswerably { db in
            try db.execute(sql: "UPDATE bindery_account SET password_hash = ? WHERE id = ?", arguments: [hash, id])
        }
    }
}
