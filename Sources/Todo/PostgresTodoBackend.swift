import Bindery
import BinderyPostgres
import Foundation
import Synchronization

/// The lists in PostgreSQL, shared by every node of a cluster: each list is
/// a `ChangeLog` topic. A change takes the list's lock and next offset in
/// its transaction, starts from the list as every change before it left it
/// (read from the log if this node has not applied them yet), writes its
/// rows and appends what it changed (`[ListChange]` as JSON); every node,
/// this one included, applies the changes in offset order.
final class PostgresTodoBackend: TodoBackend, @unchecked Sendable {
    private let writer: PostgresDatabase
    private let changes: ChangeLog
    private let lists = Mutex<[String: SharedList]>([:])

    /// One list as this node has applied it.
    private final class SharedList: @unchecked Sendable {
        let relay: BehaviorRelay<KeyedList<TodoItem>>
        /// The offset of the last change in `relay`'s value, and the value; guarded by `lock`.
        private(set) var offset: Int64
        private let lock = NSCondition()

        init(items: [TodoItem], offset: Int64) {
            relay = BehaviorRelay(value: KeyedList(items))
            self.offset = offset
        }

        /// The value and its offset, together.
        var state: (offset: Int64, items: KeyedList<TodoItem>) { lock.withLock { (offset, relay.value) } }

        /// Applies change `offset` if it is the next; whether it was (a change already applied is dropped).
        @discardableResult
        func apply(_ offset: Int64, _ changes: [ListChange<TodoItem>]) -> Bool {
            lock.withLock {
                guard offset == self.offset + 1 else { return false }
                relay.accept(relay.value.applying(changes))
                self.offset = offset
                lock.broadcast()
                return true
            }
        }

        /// Replaces the value by `items`, read whole at `offset`, unless a later one is applied.
        func reset(_ items: [TodoItem], at offset: Int64) {
            lock.withLock {
                guard offset > self.offset else { return }
                relay.accept(KeyedList(items))
                self.offset = offset
                lock.broadcast()
            }
        }

        /// Waits until change `offset` is applied, at most `seconds`.
        func wait(for offset: Int64, seconds: Double) {
            let deadline = Date().addingTimeInterval(seconds)
            lock.withLock {
                while self.offset < offset, lock.wait(until: deadline) {}
            }
        }
    }

    init(url: String, changes: ChangeLog) throws {
        writer = PostgresDatabase(url: url, name: "todo")
        self.changes = changes
        try writer.createSchema(
            """
            CREATE TABLE IF NOT EXISTS todo (id bigserial PRIMARY KEY, list text NOT NULL, title text NOT NULL,
                done boolean NOT NULL DEFAULT false, position integer NOT NULL)
            """,
            "CREATE INDEX IF NOT EXISTS todo_by_list ON todo (list, position)")
    }

    private static func topic(_ list: String) -> String { "todo/\(list)" }

    func items(of list: String) throws -> BehaviorRelay<KeyedList<TodoItem>> {
        try shared(list).relay
    }

    private func shared(_ list: String) throws -> SharedList {
        if let shared = lists.withLock({ $0[list] }) { return shared }
        let (items, offset) = try writer.sync { db in try Self.read(list, db) }
        let (shared, made) = lists.withLock { lists in
            if let shared = lists[list] { return (shared, false) }
            let shared = SharedList(items: items, offset: offset)
            lists[list] = shared
            return (shared, true)
        }
        if made {
            let topic = Self.topic(list)
            changes.follow(
                topic, after: offset,
                deliver: { offset, payload in
                    guard let changes = try? JSONDecoder().decode([ListChange<TodoItem>].self, from: payload) else { return }
                    shared.apply(offset, changes)
                },
                behind: { [weak self] in self?.reload(list, shared) })
        }
        return shared
    }

    /// The list whole and the offset it is at, in one snapshot.
    private static func read(_ list: String, _ db: PostgresConnection) throws -> ([TodoItem], Int64) {
        try db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        do {
            let offset = try ChangeLog.lastOffset(of: topic(list), in: db)
            let items = try fetch(list, db)
            try db.execute("COMMIT")
            return (items, offset)
        } catch {
            if db.isOK { _ = try? db.execute("ROLLBACK") }
            throw error
        }
    }

    private static func fetch(_ list: String, _ db: PostgresConnection) throws -> [TodoItem] {
        try db.execute("SELECT id, title, done, position FROM todo WHERE list = $1 ORDER BY position, id", [.text(list)]).map { row in
            TodoItem(id: row[0].int, list: list, title: row[1].text ?? "", done: row[2].bool ?? false, position: Int(row[3].int ?? 0))
        }
    }

    /// Reads the list whole (its changes since this node's are gone) and goes on from there.
    private func reload(_ list: String, _ shared: SharedList) {
        writer.async { [changes] connection in
            let topic = Self.topic(list)
            guard case .success(let db) = connection, let (items, offset) = try? Self.read(list, db) else {
                // The database is away: the log's next poll tries again.
                return changes.resume(topic, after: shared.state.offset)
            }
            shared.reset(items, at: offset)
            changes.resume(topic, after: offset)
        }
    }

    /// Thrown to roll back a change that changed nothing.
    private struct Unchanged: Error {}

    /// The change's transaction runs on this store's database queue, not the
    /// caller's thread; `completion` runs there once it is committed and
    /// applied here.
    func change(
        _ list: String, completion: @escaping @Sendable (Result<Void, Error>) -> Void,
        _ write: @escaping @Sendable (any TodoRows, KeyedList<TodoItem>) throws -> KeyedList<TodoItem>
    ) {
        let shared: SharedList
        do {
            shared = try self.shared(list)
        } catch {
            return completion(.failure(error))
        }
        let topic = Self.topic(list)
        writer.asyncTransaction(
            { [log = changes] db -> Committed in
                let offset = try ChangeLog.lock(topic, in: db)
                var (applied, current) = shared.state
                var decoded: [(Int64, [ListChange<TodoItem>])] = []
                if applied < offset - 1 {
                    // Changes other nodes committed that this one has not applied yet: from the log, or the list whole.
                    let missed = try ChangeLog.changes(of: topic, after: applied, through: offset - 1, in: db)
                    if missed.count == Int(offset - 1 - applied), missed.first?.offset == applied + 1 {
                        for change in missed {
                            let changes = try JSONDecoder().decode([ListChange<TodoItem>].self, from: change.payload)
                            decoded.append((change.offset, changes))
                            current = current.applying(changes)
                        }
                    } else {
                        current = KeyedList(try Self.fetch(list, db))
                    }
                    applied = offset - 1
                }
                let changed = try write(PostgresTodoRows(db: db), current)
                guard changed.version != current.version, let changes = changed.changes else { throw Unchanged() }
                let payload = try JSONEncoder.bindery.encode(changes)
                try log.append(payload, to: topic, at: offset, in: db)
                return Committed(offset: offset, changes: changes, payload: payload, missed: decoded)
            },
            completion: { [log = changes] result in
                switch result {
                case .success(let committed):
                    // Published here now, after the changes before it that this node had not
                    // applied (they committed before it), as in SQLite; if some before it are
                    // still missing, once the log has delivered them (this queue waits for them).
                    for (offset, changes) in committed.missed { shared.apply(offset, changes) }
                    if !shared.apply(committed.offset, committed.changes) {
                        log.committed(committed.payload, to: topic, at: committed.offset)
                        shared.wait(for: committed.offset, seconds: 5)
                    }
                    completion(.success(()))
                case .failure(is Unchanged):
                    completion(.success(()))
                case .failure(let error):
                    completion(.failure(error))
                }
            })
    }

    /// A change as its transaction committed it, with the earlier changes it read from the log.
    private struct Committed {
        let offset: Int64
        let changes: [ListChange<TodoItem>]
        let payload: Data
        let missed: [(Int64, [ListChange<TodoItem>])]
    }
}

private struct PostgresTodoRows: TodoRows {
    let db: PostgresConnection

    func insert(_ title: String, at position: Int, in list: String) throws -> Int64 {
        guard
            let id = try db.execute(
                "INSERT INTO todo (list, title, done, position) VALUES ($1, $2, false, $3) RETURNING id", [.text(list), .text(title), .int(Int64(position))]
            ).first?[0].int
        else { throw TodoError("the item was not stored") }
        return id
    }
    func setTitle(_ title: String, of id: Int64, in list: String) throws {
        try db.execute("UPDATE todo SET title = $1 WHERE id = $2 AND list = $3", [.text(title), .int(id), .text(list)])
    }
    func toggle(_ id: Int64, in list: String) throws {
        try db.execute("UPDATE todo SET done = NOT done WHERE id = $1 AND list = $2", [.int(id), .text(list)])
    }
    func setAllDone(_ done: Bool, in list: String) throws {
        try db.execute("UPDATE todo SET done = $1 WHERE list = $2", [.bool(done), .text(list)])
    }
    func delete(_ id: Int64, from list: String) throws {
        try db.execute("DELETE FROM todo WHERE id = $1 AND list = $2", [.int(id), .text(list)])
    }
    func setPosition(_ position: Int, of id: Int64?) throws {
        try db.execute("UPDATE todo SET position = $1 WHERE id = $2", [.int(Int64(position)), id.map(PostgresValue.int) ?? .null])
    }
    func deleteDone(in list: String) throws {
        try db.execute("DELETE FROM todo WHERE list = $1 AND done", [.text(list)])
    }
}
