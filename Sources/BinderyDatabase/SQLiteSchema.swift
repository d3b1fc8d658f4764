import GRDB

/// Bindery's own tables in the app's SQLite database, in one place: GRDB migrations,
/// each applied once and recorded by name (`grdb_migrations`), so that a database
/// made by an older Bindery is brought up to date as the app starts. A change is a
/// new migration here, never an edit of an old one. (The app's own tables have their
/// own migrations: the todo list's are in `Todo`.)
enum SQLiteSchema {
    /// The input receipts' table, made by its migration, and (if the migration has
    /// not run in this database yet) by the group commit that first records one.
    static let receipts = [
        """
        CREATE TABLE IF NOT EXISTS bindery_input_receipt (session TEXT NOT NULL, key TEXT NOT NULL, at REAL NOT NULL,
            PRIMARY KEY (session, key)) WITHOUT ROWID
        """,
        "CREATE INDEX IF NOT EXISTS bindery_input_receipt_by_time ON bindery_input_receipt (at)",
    ]

    /// Every migration, oldest first.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("bindery-session-v1") { db in
            try db.create(table: "bindery_session") { table in
                table.primaryKey("id", .text)
                table.column("view_model", .text).notNull()
                table.column("shared", .boolean).notNull()
                table.column("parameters", .blob).notNull()
                table.column("client", .text)
                table.column("owner_kind", .text)
                table.column("owner", .text)
                table.column("identity", .text)
                table.column("identity_attributes", .blob)
                table.column("created_at", .double).notNull()
                table.column("last_seen", .double).notNull()
                table.column("state", .blob)
                table.column("last_event_id", .integer).notNull()
                table.column("stopped_cleanly", .boolean).notNull()
            }
            try db.create(index: "bindery_session_by_last_seen", on: "bindery_session", columns: ["last_seen"])
            try db.execute(sql: "CREATE INDEX bindery_session_shared ON bindery_session(view_model) WHERE shared")
        }
        migrator.registerMigration("bindery-session-v2-input-keys") { db in
            try db.alter(table: "bindery_session") { table in table.add(column: "input_keys", .blob) }
        }
        migrator.registerMigration("bindery-value-v1") { db in
            try db.create(table: "bindery_value") { table in
                table.primaryKey("key", .text)
                table.column("state", .blob).notNull()
            }
        }
        migrator.registerMigration("bindery-input-receipt-v1") { db in
            for statement in receipts { try db.execute(sql: statement) }
        }
        migrator.registerMigration("bindery-sign-in-v1") { db in
            try db.create(table: "bindery_sign_in") { table in
                table.primaryKey("token_hash", .text)
                table.column("identity", .text).notNull()
                table.column("identity_attributes", .blob)
                table.column("created_at", .double).notNull()
                table.column("last_used_at", .double).notNull()
            }
            try db.create(index: "bindery_sign_in_by_identity", on: "bindery_sign_in", columns: ["identity"])
        }
        migrator.registerMigration("bindery-sign-in-v2-script-tokens") { db in
            try db.alter(table: "bindery_sign_in") { table in
                table.add(column: "kind", .text).notNull().defaults(to: "browser")
                table.add(column: "name", .text)
            }
        }
        return migrator
    }

    /// Brings `database` up to date.
    static func migrate(_ database: any DatabaseWriter) throws {
        try migrator.migrate(database)
    }
}
