import Bindery
import Foundation

/// The app's sessions and kept values in PostgreSQL (tables `bindery_session`
/// and `bindery_value`, as `SQLiteSessionStore` keeps them in SQLite): what a
/// cluster's nodes share, so that a session whose node died is made again on
/// the next node its requests reach.
///
/// A session is claimed by the node that made it, or made it again from
/// here (`claimed_by`): another node's saves of it are refused from then on
/// (a node that held it while its own node was away must not write an older
/// state over the newer one), and each claim is announced on
/// `claimsChannel`, so that a node still holding the session lets it go.
///
/// Thread safety: called from the runtime's store queue, one call at a time;
/// its statements run on a connection of its own.
package final class PostgresSessionStore: SessionStore {
    /// Where claims are announced: `"<node> <session id>"`.
    package static let claimsChannel = "bindery_claims"
    private let database: PostgresDatabase
    /// This process, among the cluster's.
    package let node: String

    /// The store in the database at `url`, for the process `node`, its tables made if missing.
    package init(url: String, node: String = UUID().uuidString) throws {
        self.node = node
        database = PostgresDatabase(url: url, name: "sessions")
        try PostgresSchema.migrate(database)
    }

    private static let columns =
        "id, view_model, shared, parameters, client, owner_kind, owner, identity, identity_attributes, created_at, last_seen, state, last_event_id, stopped_cleanly, input_keys"
    private static let updates = """
        view_model = EXCLUDED.view_model, shared = EXCLUDED.shared,
            parameters = EXCLUDED.parameters, client = EXCLUDED.client, owner_kind = EXCLUDED.owner_kind,
            owner = EXCLUDED.owner, identity = EXCLUDED.identity, identity_attributes = EXCLUDED.identity_attributes,
            created_at = EXCLUDED.created_at, last_seen = EXCLUDED.last_seen, state = EXCLUDED.state,
            last_event_id = EXCLUDED.last_event_id, stopped_cleanly = EXCLUDED.stopped_cleanly, input_keys = EXCLUDED.input_keys,
            claimed_by = EXCLUDED.claimed_by
        """

    package func loadValue(key: String) throws -> Data? {
        try database.sync { db in try db.execute("SELECT state FROM bindery_value WHERE key = $1", [.text(key)]).first?[0].bytes }
    }

    package func saveValues(_ values: [String: Data]) throws {
        try database.transaction { db in
            for (key, state) in values {
                try db.execute(
                    "INSERT INTO bindery_value (key, state) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET state = EXCLUDED.state",
                    [.text(key), .bytes(state)])
            }
        }
    }

    package func load(id: String) throws -> StoredSession? {
        try database.sync { db in
            try db.execute("SELECT \(Self.columns) FROM bindery_session WHERE id = $1", [.text(id)]).first.map(Self.session)
        }
    }

    package func loadShared(viewModel: String) throws -> StoredSession? {
        try database.sync { db in
            try db.execute(
                "SELECT \(Self.columns) FROM bindery_session WHERE view_model = $1 AND shared ORDER BY last_seen DESC LIMIT 1",
                [.text(viewModel)]
            ).first.map(Self.session)
        }
    }

    package func save(_ sessions: [StoredSession], deleting: [String]) throws -> Set<String> {
        try database.transaction { db in
            var taken: Set<String> = []
            for session in sessions {
                // Written only where this node is the claimer (or nobody is); otherwise another node made it again since.
                let written = try db.execute(
                    """
                    INSERT INTO bindery_session (\(Self.columns), claimed_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
                    ON CONFLICT (id) DO UPDATE SET \(Self.updates)
                    WHERE bindery_session.claimed_by IS NULL OR bindery_session.claimed_by = EXCLUDED.claimed_by
                    RETURNING id
                    """, try values(session))
                if written.isEmpty { taken.insert(session.id) }
            }
            for id in deleting {
                try db.execute("DELETE FROM bindery_session WHERE id = $1 AND (claimed_by IS NULL OR claimed_by = $2)", [.text(id), .text(node)])
            }
            return taken
        }
    }

    package func claim(_ session: StoredSession) throws {
        try database.transaction { db in
            try db.execute(
                """
                INSERT INTO bindery_session (\(Self.columns), claimed_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
                ON CONFLICT (id) DO UPDATE SET \(Self.updates)
                """, try values(session))
            try db.execute("SELECT pg_notify($1, $2)", [.text(Self.claimsChannel), .text("\(node) \(session.id)")])
        }
    }

    private func values(_ session: StoredSession) throws -> [PostgresValue] {
        let (ownerKind, owner): (PostgresValue, PostgresValue) =
            switch session.owner {
            case .browser(let token): (.text("browser"), .text(token))
            case .identity(let id): (.text("identity"), .text(id))
            case nil: (.null, .null)
            }
        let attributes = try session.identity.map { PostgresValue.bytes(try JSONEncoder.bindery.encode($0.attributes)) } ?? .null
        return [
            .text(session.id), .text(session.viewModel), .bool(session.isShared), .bytes(session.parameters),
            session.client.map(PostgresValue.text) ?? .null, ownerKind, owner,
            session.identity.map { .text($0.id) } ?? .null, attributes,
            .double(session.createdAt.timeIntervalSince1970), .double(session.lastSeen.timeIntervalSince1970),
            session.state.map(PostgresValue.bytes) ?? .null, .int(Int64(bitPattern: session.lastEventID)),
            .bool(session.stoppedCleanly), session.inputKeys.map(PostgresValue.bytes) ?? .null, .text(node),
        ]
    }

    package func expire(lastSeenBefore date: Date, keepingAtMost limit: Int, batch: Int) throws -> (left: Int, done: Bool) {
        try database.transaction { db in
            let expired = try db.execute(
                "DELETE FROM bindery_session WHERE id IN (SELECT id FROM bindery_session WHERE last_seen < $1 LIMIT $2) RETURNING 1",
                [.double(date.timeIntervalSince1970), .int(Int64(batch))]
            ).count
            let count = Int(try db.execute("SELECT count(*) FROM bindery_session").first?[0].int ?? 0)
            guard expired < batch else { return (count, false) }
            guard count > limit else { return (count, true) }
            let removing = min(count - limit, batch)
            try db.execute(
                "DELETE FROM bindery_session WHERE id IN (SELECT id FROM bindery_session ORDER BY last_seen LIMIT $1)", [.int(Int64(removing))])
            return (count - removing, count - removing <= limit)
        }
    }

    private static func session(_ row: [PostgresValue]) throws -> StoredSession {
        let owner: SessionOwner? =
            switch (row[5].text, row[6].text) {
            case ("browser", let token?): .browser(token)
            case ("identity", let id?): .identity(id)
            default: nil
            }
        let identity = try row[7].text.map { id in
            Identity(id, attributes: try row[8].bytes.map { try JSONDecoder().decode([String: String].self, from: $0) } ?? [:])
        }
        return StoredSession(
            id: row[0].text ?? "", viewModel: row[1].text ?? "", isShared: row[2].bool ?? false, parameters: row[3].bytes ?? Data(),
            client: row[4].text, owner: owner, identity: identity,
            createdAt: Date(timeIntervalSince1970: row[9].double ?? 0), lastSeen: Date(timeIntervalSince1970: row[10].double ?? 0),
            state: row[11].bytes, lastEventID: UInt64(bitPattern: row[12].int ?? 0), stoppedCleanly: row[13].bool ?? false,
            inputKeys: row[14].bytes)
    }
}

extension Application {
    /// Keeps the app's sessions in the PostgreSQL database at `url` (see
    /// `keepSessions(in:)` for SQLite): every node of a cluster keeps them
    /// there, so that any node can make again a session whose node is gone.
    /// `node` names this process among the cluster's; `changes`' listener
    /// (started after this) tells it when another claims a session it holds,
    /// which it then lets go. Call before serving.
    public func keepSessions(inPostgres url: String, node: String = UUID().uuidString, listeningWith changes: ChangeLog) throws {
        let store = try PostgresSessionStore(url: url, node: node)
        keepSessions(in: store)
        let node = store.node
        changes.listen(on: PostgresSessionStore.claimsChannel) { [weak self] payload in
            guard let space = payload.firstIndex(of: " "), payload[..<space] != node else { return }
            self?.relinquish(sessionID: String(payload[payload.index(after: space)...]))
        }
    }
}
