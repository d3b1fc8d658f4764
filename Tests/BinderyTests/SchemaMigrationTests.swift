import BinderyDatabase
import BinderyLoopback
import BinderyPostgres
import Foundation
import GRDB
import XCTest

@testable import Bindery

/// Bindery's tables are migrated at start, in SQLite and in PostgreSQL: a database
/// made by an older Bindery is brought up to date with its data, and one made by a
/// newer Bindery is refused.
final class SchemaMigrationTests: XCTestCase {
    /// A SQLite database as a Bindery before input keys left it: its first session
    /// migration applied, a session stored. The store brings it up to date, keeping it.
    func testAnOlderSQLiteDatabaseIsMigratedWithItsSessions() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        do {
            let old = try DatabaseQueue(path: path)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("bindery-session-v1") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE bindery_session (id TEXT PRIMARY KEY NOT NULL, view_model TEXT NOT NULL, shared BOOLEAN NOT NULL,
                            parameters BLOB NOT NULL, client TEXT, owner_kind TEXT, owner TEXT, identity TEXT, identity_attributes BLOB,
                            created_at DOUBLE NOT NULL, last_seen DOUBLE NOT NULL, state BLOB, last_event_id INTEGER NOT NULL,
                            stopped_cleanly BOOLEAN NOT NULL)
                        """)
            }
            try migrator.migrate(old)
            try old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO bindery_session (id, view_model, shared, parameters, created_at, last_seen, last_event_id, stopped_cleanly)
                        VALUES ('kept-before', 'counter', 0, x'7B7D', 1, 2, 7, 1)
                        """)
            }
        }
        let database = try DatabaseQueue(path: path)
        let store = try SQLiteSessionStore(database: database)
        XCTAssertEqual(try store.load(id: "kept-before")?.lastEventID, 7, "the session made before is there")
        let columns = try database.read { db in try db.columns(in: "bindery_session").map(\.name) }
        XCTAssertTrue(columns.contains("input_keys"))
        let applied = try database.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        XCTAssertEqual(
            Set(applied),
            [
                "bindery-session-v1", "bindery-session-v2-input-keys", "bindery-value-v1", "bindery-input-receipt-v1", "bindery-sign-in-v1",
                "bindery-sign-in-v2-script-tokens",
            ])
        XCTAssertTrue(try database.read { db in try db.tableExists("bindery_input_receipt") })
    }

    /// A PostgreSQL database as Bindery's nodes made it before versions: the tables of
    /// that time, without the columns added since, a session in them. It is adopted as
    /// version 1, its columns added, its session kept, and the later versions applied on top.
    func testAPostgresDatabaseMadeBeforeVersionsIsAdopted() throws {
        let url = try TestPostgres.freshDatabase()
        let db = try PostgresConnection(url: url)
        try db.execute(
            """
            CREATE TABLE bindery_session (
                id text PRIMARY KEY, view_model text NOT NULL, shared boolean NOT NULL, parameters bytea NOT NULL,
                client text, owner_kind text, owner text, identity text, identity_attributes bytea,
                created_at double precision NOT NULL, last_seen double precision NOT NULL, state bytea,
                last_event_id bigint NOT NULL, stopped_cleanly boolean NOT NULL)
            """)
        try db.execute(
            "INSERT INTO bindery_session (id, view_model, shared, parameters, created_at, last_seen, last_event_id, stopped_cleanly) VALUES ('kept-before', 'counter', false, '\\x7b7d', 1, 2, 7, true)"
        )
        let database = PostgresDatabase(url: url, name: "test")
        XCTAssertEqual(try PostgresSchema.migrate(database), Array(1...PostgresSchema.latest))
        XCTAssertEqual(try PostgresSchema.migrate(database), [], "once up to date, nothing is applied again")
        let store = try PostgresSessionStore(url: url)
        XCTAssertEqual(try store.load(id: "kept-before")?.lastEventID, 7)
        for table in [
            "bindery_session", "bindery_value", "bindery_input_receipt", "bindery_topic", "bindery_change", "bindery_lease", "bindery_shared",
            "bindery_shared_value", "bindery_sign_in", "bindery_account",
        ] {
            XCTAssertEqual(try db.execute("SELECT to_regclass($1) IS NOT NULL", [.text(table)]).first?[0].bool, true, table)
        }
        let columns = try db.execute("SELECT column_name FROM information_schema.columns WHERE table_name = 'bindery_session'").compactMap { $0[0].text }
        XCTAssertTrue(columns.contains("input_keys") && columns.contains("claimed_by"))
    }

    /// A later version applies once on top; a node that knows fewer versions refuses the database.
    func testALaterVersionAppliesOnceAndAnOlderNodeRefusesTheDatabase() throws {
        let url = try TestPostgres.freshDatabase()
        let database = PostgresDatabase(url: url, name: "test")
        let latest = PostgresSchema.latest
        let next =
            PostgresSchema.migrations + [
                PostgresSchema.Migration(version: latest + 1, name: "a test's column", statements: ["ALTER TABLE bindery_value ADD COLUMN noted text"])
            ]
        XCTAssertEqual(try PostgresSchema.migrate(database, migrations: next), Array(1...latest + 1))
        XCTAssertEqual(try PostgresSchema.migrate(database, migrations: next), [])
        XCTAssertThrowsError(try PostgresSchema.migrate(database)) { error in
            XCTAssertEqual((error as? BinderyError)?.code, .databaseUnavailable)
            XCTAssertTrue("\(error)".contains("version \(latest + 1), newer than this Bindery's \(latest)"), "\(error)")
        }
    }
}
