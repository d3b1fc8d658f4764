import Bindery
import BinderyDatabase
import Foundation

/// Where a `TodoStore` keeps its lists: their live values, and changes in
/// one transaction each, published to every reader of the list once committed.
protocol TodoBackend: Sendable {
    /// The items of `list`, live.
    func items(of list: String) throws -> BehaviorRelay<KeyedList<TodoItem>>
    /// Runs `write` in one transaction with the list's current items, and
    /// gives every reader of `list` what it returns: those items with its
    /// change. Returns at once; `completion` runs, on the database's thread,
    /// once the change is committed and published here (or failed).
    func change(
        _ list: String, completion: @escaping @Sendable (Result<Void, Error>) -> Void,
        _ write: @escaping @Sendable (any TodoRows, KeyedList<TodoItem>) throws -> KeyedList<TodoItem>)
}

/// The row writes a change makes, in its transaction.
protocol TodoRows {
    /// Inserts an item; its id.
    func insert(_ title: String, at position: Int, in list: String) throws -> Int64
    func setTitle(_ title: String, of id: Int64, in list: String) throws
    func toggle(_ id: Int64, in list: String) throws
    func setAllDone(_ done: Bool, in list: String) throws
    func delete(_ id: Int64, from list: String) throws
    func setPosition(_ position: Int, of id: Int64?) throws
    func deleteDone(in list: String) throws
}

/// The lists in SQLite (GRDB), changes group-committed.
final class SQLiteTodoBackend: TodoBackend, @unchecked Sendable {
    private let database: any DatabaseWriter
    private let lock = NSLock()
    private var relays: [String: BehaviorRelay<KeyedList<TodoItem>>] = [:]
    /// Commits the changes that arrive together in one transaction, in order,
    /// and publishes each after the commit: readers never see an older list after a newer one.
    private let commits: GroupCommit
    /// The lists as the changes of the batch being committed left them, not yet published.
    private let uncommittedLists: UncommittedLists

    init(database: any DatabaseWriter) throws {
        self.database = database
        let uncommitted = UncommittedLists()
        self.uncommittedLists = uncommitted
        commits = GroupCommit(database, endOfBatch: { uncommitted.clear() })
        var migrator = DatabaseMigrator()
        migrator.registerMigration("todo-v1") { db in
            try db.create(table: "todo") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("list", .text).notNull()
                table.column("title", .text).notNull()
                table.column("done", .boolean).notNull().defaults(to: false)
                table.column("position", .integer).notNull()
            }
            try db.create(index: "todo_by_list", on: "todo", columns: ["list", "position"])
        }
        try migrator.migrate(database)
    }

    func items(of list: String) throws -> BehaviorRelay<KeyedList<TodoItem>> {
        if let relay = lock.withLock({ relays[list] }) { return relay }
        let current = try database.read { db in
            try TodoItem.fetchAll(db, sql: "SELECT * FROM todo WHERE list = ? ORDER BY position, id", arguments: [list])
        }
        return lock.withLock {
            if let relay = relays[list] { return relay }
            let relay = BehaviorRelay(value: KeyedList(current))
            relays[list] = relay
            return relay
        }
    }

    /// Changes that arrive together are committed together (`GroupCommit`):
    /// each starts from the list as the one before it in the batch left it,
    /// and each is published, in order, once the batch has committed; its
    /// completion runs then. Readers get the list on their own schedulers (a
    /// ViewModel reads the relay as a `Driver`), so publishing never runs
    /// another session's code here.
    func change(
        _ list: String, completion: @escaping @Sendable (Result<Void, Error>) -> Void,
        _ write: @escaping @Sendable (any TodoRows, KeyedList<TodoItem>) throws -> KeyedList<TodoItem>
    ) {
        let relay: BehaviorRelay<KeyedList<TodoItem>>
        do {
            relay = try items(of: list)
        } catch {
            return completion(.failure(error))
        }
        let uncommitted = uncommittedLists
        commits.write(
            { db in
                let current = uncommitted.lists[list] ?? relay.value
                let changed = try write(SQLiteTodoRows(db: db), current)
                uncommitted.lists[list] = changed
                return (current.version, changed)
            },
            completion: { result in
                completion(
                    result.map { (before: UInt64, changed: KeyedList<TodoItem>) in
                        if changed.version != before { relay.accept(changed) }
                    })
            })
    }
}

/// The lists a batch's changes have made, not yet committed: touched only by
/// the batch's committer, inside its transaction and after it.
private final class UncommittedLists: @unchecked Sendable {
    var lists: [String: KeyedList<TodoItem>] = [:]
    func clear() { lists.removeAll() }
}

private struct SQLiteTodoRows: TodoRows {
    let db: Database

    func insert(_ title: String, at position: Int, in list: String) throws -> Int64 {
        try db.execute(sql: "INSERT INTO todo (list, title, done, position) VALUES (?, ?, 0, ?)", arguments: [list, title, position])
        return db.lastInsertedRowID
    }
    func setTitle(_ title: String, of id: Int64, in list: String) throws {
        try db.execute(sql: "UPDATE todo SET title = ? WHERE id = ? AND list = ?", arguments: [title, id, list])
    }
    func toggle(_ id: Int64, in list: String) throws {
        try db.execute(sql: "UPDATE todo SET done = NOT done WHERE id = ? AND list = ?", arguments: [id, list])
    }
    func setAllDone(_ done: Bool, in list: String) throws {
        try db.execute(sql: "UPDATE todo SET done = ? WHERE list = ?", arguments: [done, list])
    }
    func delete(_ id: Int64, from list: String) throws {
        try db.execute(sql: "DELETE FROM todo WHERE id = ? AND list = ?", arguments: [id, list])
    }
    func setPosition(_ position: Int, of id: Int64?) throws {
        try db.execute(sql: "UPDATE todo SET position = ? WHERE id = ?", arguments: [position, id])
    }
    func deleteDone(in list: String) throws {
        try db.execute(sql: "DELETE FROM todo WHERE list = ? AND done", arguments: [list])
    }
}
