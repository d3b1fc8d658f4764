import Bindery
import Foundation
import GRDB

/// The app's sessions in its SQLite database, table `bindery_session`, and
/// its kept values (`Application.keptRelay`), table `bindery_value`: what
/// `Application.keepSessions(in:)` keeps them in.
///
/// Writes come in batches from the runtime's saves (one transaction each);
/// reads by id, when a session no process holds is asked for. Thread safety:
/// called from the runtime's store queue, one call at a time; GRDB's pool
/// orders it with the app's own use of the database.
package final class SQLiteSessionStore: SessionStore {
    private let database: any DatabaseWriter

    /// The store in `database`, brought up to date (`SQLiteSchema`).
    package init(database: any DatabaseWriter) throws {
        self.database = database
        try SQLiteSchema.migrate(database)
    }

    package func loadValue(key: String) throws -> Data? {
        try database.read { db in try Data.fetchOne(db, sql: "SELECT state FROM bindery_value WHERE key = ?", arguments: [key]) }
    }

    package func saveValues(_ values: [String: Data]) throws {
        try database.write { db in
            for (key, state) in values {
                try db.execute(sql: "INSERT OR REPLACE INTO bindery_value (key, state) VALUES (?, ?)", arguments: [key, state])
            }
        }
    }

    package func load(id: String) throws -> StoredSession? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM bindery_session WHERE id = ?", arguments: [id]).map(Self.session)
        }
    }

    package func loadShared(viewModel: String) throws -> StoredSession? {
        try database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM bindery_session WHERE view_model = ? AND shared ORDER BY last_seen DESC LIMIT 1",
                arguments: [viewModel]
            ).map(Self.session)
        }
    }

    /// One process owns the file: nothing is refused.
    package func save(_ sessions: [StoredSession], deleting: [String]) throws -> Set<String> {
        try database.write { db in
            let insert = try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO bindery_session (id, view_model, shared, parameters, client, owner_kind, owner, identity,
                    identity_attributes, created_at, last_seen, state, last_event_id, stopped_cleanly, input_keys)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for session in sessions {
                let (ownerKind, owner): (String?, String?) =
                    switch session.owner {
                    case .browser(let token): ("browser", token)
                    case .identity(let id): ("identity", id)
                    case nil: (nil, nil)
                    }
                let attributes = try session.identity.map { try JSONEncoder.bindery.encode($0.attributes) }
                try insert.execute(arguments: [
                    session.id, session.viewModel, session.isShared, session.parameters, session.client, ownerKind, owner,
                    session.identity?.id, attributes, session.createdAt.timeIntervalSince1970, session.lastSeen.timeIntervalSince1970,
                    session.state, Int64(bitPattern: session.lastEventID), session.stoppedCleanly, session.inputKeys,
                ])
            }
            let delete = try db.cachedStatement(sql: "DELETE FROM bindery_session WHERE id = ?")
            for id in deleting { try delete.execute(arguments: [id]) }
            return []
        }
    }

    package func expire(lastSeenBefore date: Date, keepingAtMost limit: Int, batch: Int) throws -> (left: Int, done: Bool) {
        try database.write { db in
            try db.execute(
                sql: "DELETE FROM bindery_session WHERE id IN (SELECT id FROM bindery_session WHERE last_seen < ? LIMIT ?)",
                arguments: [date.timeIntervalSince1970, batch])
            let expired = db.changesCount
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM bindery_session") ?? 0
            guard expired < batch else { return (count, false) }
            guard count > limit else { return (count, true) }
            let removing = min(count - limit, batch)
            try db.execute(
                sql: "DELETE FROM bindery_session WHERE id IN (SELECT id FROM bindery_session ORDER BY last_seen LIMIT ?)", arguments: [removing])
            return (count - removing, count - removing <= limit)
        }
    }

    private static func session(_ row: Row) throws -> StoredSession {
        let owner: SessionOwner? =
            switch (row["owner_kind"] as String?, row["owner"] as String?) {
            case ("browser", let token?): .browser(token)
            case ("identity", let id?): .identity(id)
            default: nil
            }
        let identity = try (row["identity"] as String?).map { id in
            Identity(id, attributes: try (row["identity_attributes"] as Data?).map { try JSONDecoder().decode([String: String].self, from: $0) } ?? [:])
        }
        return StoredSession(
            id: row["id"], viewModel: row["view_model"], isShared: row["shared"], parameters: row["parameters"] ?? Data(),
            client: row["client"], owner: owner, identity: identity,
            createdAt: Date(timeIntervalSince1970: row["created_at"]), lastSeen: Date(timeIntervalSince1970: row["last_seen"]),
            state: row["state"], lastEventID: UInt64(bitPattern: row["last_event_id"] as Int64), stoppedCleanly: row["stopped_cleanly"],
            inputKeys: row["input_keys"])
    }
}

extension Application {
    /// Keeps the app's sessions in `database` (table `bindery_session`), so
    /// that they outlive the process: a restart, a deploy, an idle session let
    /// go. Their declared state (`SessionRelay`) is saved a moment after it
    /// changes (`RuntimeConfiguration.sessionSaveInterval`), everything as the
    /// server stops; a session asked for that this process does not hold is
    /// made again from it. Call before serving.
    public func keepSessions(in database: any DatabaseWriter) throws {
        keepSessions(in: try SQLiteSessionStore(database: database))
    }
}
