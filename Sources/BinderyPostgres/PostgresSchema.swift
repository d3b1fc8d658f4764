import Bindery

/// Bindery's own tables in a cluster's PostgreSQL database, in one place: each
/// version a migration, applied in order at start by whichever node gets there
/// first (under the lock every node takes for its schema), recorded in
/// `bindery_schema`. Version 1 is the schema as it stood before migrations were
/// versioned, written so that it applies as well to a database made by that code
/// (it only adds what is missing), which it then adopts. A later change is a new
/// version here, never an edit of an old one.
package enum PostgresSchema {
    /// One version of the schema.
    package struct Migration: Sendable {
        let version: Int
        let name: String
        let statements: [String]

        package init(version: Int, name: String, statements: [String]) {
            self.version = version
            self.name = name
            self.statements = statements
        }
    }

    /// Every version, oldest first.
    package static let migrations: [Migration] = [
        Migration(
            version: 1, name: "sessions, values, receipts, changes, shared sessions",
            statements: [
                // Sessions kept for the cluster (PostgresSessionStore), and values kept by key.
                """
                CREATE TABLE IF NOT EXISTS bindery_session (
                    id text PRIMARY KEY, view_model text NOT NULL, shared boolean NOT NULL, parameters bytea NOT NULL,
                    client text, owner_kind text, owner text, identity text, identity_attributes bytea,
                    created_at double precision NOT NULL, last_seen double precision NOT NULL, state bytea,
                    last_event_id bigint NOT NULL, stopped_cleanly boolean NOT NULL, claimed_by text)
                """,
                "ALTER TABLE bindery_session ADD COLUMN IF NOT EXISTS claimed_by text",
                "ALTER TABLE bindery_session ADD COLUMN IF NOT EXISTS input_keys bytea",
                "CREATE INDEX IF NOT EXISTS bindery_session_by_last_seen ON bindery_session (last_seen)",
                "CREATE INDEX IF NOT EXISTS bindery_session_shared ON bindery_session (view_model) WHERE shared",
                "CREATE TABLE IF NOT EXISTS bindery_value (key text PRIMARY KEY, state bytea NOT NULL)",
                // Inputs applied, by their Idempotency-Key (PostgresDatabase.asyncTransaction).
                """
                CREATE TABLE IF NOT EXISTS bindery_input_receipt (session text NOT NULL, key text NOT NULL,
                    at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (session, key))
                """,
                "CREATE INDEX IF NOT EXISTS bindery_input_receipt_by_time ON bindery_input_receipt (at)",
                // Changes by offset per topic (ChangeLog).
                "CREATE TABLE IF NOT EXISTS bindery_topic (topic text PRIMARY KEY, last_offset bigint NOT NULL)",
                """
                CREATE TABLE IF NOT EXISTS bindery_change (topic text NOT NULL, "offset" bigint NOT NULL, payload bytea NOT NULL,
                    PRIMARY KEY (topic, "offset"))
                """,
                // Shared ViewModels: the owner's lease, the session, its kept values (PostgresSharedSessions).
                """
                CREATE TABLE IF NOT EXISTS bindery_lease (view_model text PRIMARY KEY, node text NOT NULL, epoch bigint NOT NULL,
                    expires_at timestamptz NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS bindery_shared (view_model text PRIMARY KEY, session_id text NOT NULL, epoch bigint NOT NULL,
                    last_event_id bigint NOT NULL, inputs_through bigint NOT NULL, state bytea)
                """,
                """
                CREATE TABLE IF NOT EXISTS bindery_shared_value (view_model text NOT NULL, name text NOT NULL, json bytea NOT NULL,
                    PRIMARY KEY (view_model, name))
                """,
            ]),
        Migration(
            version: 2, name: "sign-ins and accounts",
            statements: [
                // Browsers' sign-ins and scripts' tokens, by their token's hash (PostgresSignInStore).
                """
                CREATE TABLE bindery_sign_in (token_hash text PRIMARY KEY, identity text NOT NULL, identity_attributes bytea,
                    created_at double precision NOT NULL, last_used_at double precision NOT NULL, kind text NOT NULL, name text)
                """,
                "CREATE INDEX bindery_sign_in_by_identity ON bindery_sign_in (identity)",
                // Accounts with passwords (PostgresAccountStore, for BinderyAccounts).
                """
                CREATE TABLE bindery_account (id text PRIMARY KEY, login text NOT NULL UNIQUE, password_hash text NOT NULL,
                    created_at double precision NOT NULL)
                """,
            ]),
    ]

    /// The latest version.
    package static var latest: Int { migrations.last?.version ?? 0 }

    /// Brings the database at `database`'s URL to the latest version and returns the
    /// versions it applied (none, once it is up to date: a look at `bindery_schema`
    /// under the lock, as each part of a node starts). A database of a newer version than this
    /// code knows (a newer Bindery's) is refused rather than used.
    @discardableResult
    package static func migrate(_ database: PostgresDatabase, migrations: [Migration] = migrations) throws -> [Int] {
        try database.sync { try migrate($0, migrations: migrations) }
    }

    /// `migrate(_:)` on `connection` (from its database's own queue).
    @discardableResult
    package static func migrate(_ connection: PostgresConnection, migrations: [Migration] = migrations) throws -> [Int] {
        try connection.transaction { db -> [Int] in
            try db.execute("SELECT pg_advisory_xact_lock(7302351)")
            try db.execute(
                "CREATE TABLE IF NOT EXISTS bindery_schema (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            let current = Int(try db.execute("SELECT coalesce(max(version), 0) FROM bindery_schema").first?[0].int ?? 0)
            let known = migrations.last?.version ?? 0
            guard current <= known else {
                throw BinderyError(
                    .databaseUnavailable,
                    "the database's schema is version \(current), newer than this Bindery's \(known): start the newer Bindery, or a database of its own")
            }
            var applied: [Int] = []
            for migration in migrations where migration.version > current {
                for statement in migration.statements { try db.execute(statement) }
                try db.execute("INSERT INTO bindery_schema (version, name) VALUES ($1, $2)", [.int(Int64(migration.version)), .text(migration.name)])
                applied.append(migration.version)
            }
            return applied
        }
    }
}
