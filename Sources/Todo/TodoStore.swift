import Bindery
import BinderyDatabase
import Foundation

/// The todo lists in the app's database, and their live values: every
/// ViewModel of a list reads the same relay, so a change made through one
/// session (or curl) reaches every page on that list at once.
///
/// Each change is one SQLite transaction that has committed (WAL, `synchronous
/// = FULL`) when the method returns: an input that calls it in its turn is
/// durable before its POST is answered. Writes go through the database's
/// writer one at a time, so positions never interleave.
///
/// Thread safety: every method may be called from any thread.
public final class TodoStore: @unchecked Sendable {
    /// Longest title accepted.
    public static let maxTitleLength = 200

    private let database: any DatabaseWriter
    private let lock = NSLock()
    private var relays: [String: BehaviorRelay<[TodoItem]>] = [:]
    /// Orders changes with their publication: readers never see an older list after a newer one.
    private let writing = NSLock()

    /// The store of `database`, migrated to the current schema.
    public init(database: any DatabaseWriter) throws {
        self.database = database
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

    /// The items of `list`, live: the current ones first, then each change.
    public func items(of list: String) throws -> BehaviorRelay<[TodoItem]> {
        if let relay = lock.withLock({ relays[list] }) { return relay }
        let current = try database.read { db in try Self.fetch(list, db) }
        return lock.withLock {
            if let relay = relays[list] { return relay }
            let relay = BehaviorRelay(value: current)
            relays[list] = relay
            return relay
        }
    }

    /// A title as stored: trimmed; nil (with why) if it is empty, too long, or
    /// holds a control character. A title is one line of text, and SQLite's
    /// text (as GRDB binds it) ends at a NUL: `"abc\u{0}def"` would be stored as
    /// `abc`, so it is refused rather than cut short.
    public static func validate(_ title: String) -> Result<String, TodoError> {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .failure(TodoError("a title is one line of text, without control characters"))
        }
        if trimmed.isEmpty { return .failure(TodoError("a todo needs a title")) }
        if trimmed.count > maxTitleLength { return .failure(TodoError("a title has at most \(maxTitleLength) characters")) }
        return .success(trimmed)
    }

    /// Adds `title` at the end of `list`.
    public func add(_ title: String, to list: String) throws {
        try change(list) { db in
            let end = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM todo WHERE list = ?", arguments: [list]) ?? 0
            let item = TodoItem(id: nil, list: list, title: title, done: false, position: end)
            try item.insert(db)
        }
    }

    /// Renames item `id` of `list`.
    public func rename(_ id: Int64, in list: String, to title: String) throws {
        try change(list) { db in
            try db.execute(sql: "UPDATE todo SET title = ? WHERE id = ? AND list = ?", arguments: [title, id, list])
        }
    }

    /// Flips item `id` of `list` between done and not done.
    public func toggle(_ id: Int64, in list: String) throws {
        try change(list) { db in
            try db.execute(sql: "UPDATE todo SET done = NOT done WHERE id = ? AND list = ?", arguments: [id, list])
        }
    }

    /// Marks every item of `list` done, or every one not done if all are.
    public func toggleAll(in list: String) throws {
        try change(list) { db in
            let open = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM todo WHERE list = ? AND NOT done", arguments: [list]) ?? 0
            try db.execute(sql: "UPDATE todo SET done = ? WHERE list = ?", arguments: [open > 0, list])
        }
    }

    /// Deletes item `id` of `list`.
    public func delete(_ id: Int64, from list: String) throws {
        try change(list) { db in
            try db.execute(sql: "DELETE FROM todo WHERE id = ? AND list = ?", arguments: [id, list])
        }
    }

    /// Moves item `id` of `list` to index `index` (clamped), the others closing up.
    public func move(_ id: Int64, in list: String, to index: Int) throws {
        try change(list) { db in
            var items = try Self.fetch(list, db)
            guard let from = items.firstIndex(where: { $0.id == id }) else { return }
            let item = items.remove(at: from)
            items.insert(item, at: max(0, min(index, items.count)))
            for (position, item) in items.enumerated() where item.position != position {
                try db.execute(sql: "UPDATE todo SET position = ? WHERE id = ?", arguments: [position, item.id])
            }
        }
    }

    /// Deletes the done items of `list`.
    public func clearCompleted(in list: String) throws {
        try change(list) { db in
            try db.execute(sql: "DELETE FROM todo WHERE list = ? AND done", arguments: [list])
        }
    }

    /// Runs `write` in one transaction, then gives every reader of `list` its
    /// new items. Readers get them on their own schedulers (a ViewModel reads
    /// the relay as a `Driver`), so publishing never runs another session's code here.
    private func change(_ list: String, _ write: @escaping @Sendable (Database) throws -> Void) throws {
        let relay = try items(of: list)
        try writing.withLock {
            // Read back in the same transaction: the published items are exactly what was committed.
            let items = try database.write { db in
                try write(db)
                return try Self.fetch(list, db)
            }
            relay.accept(items)
        }
    }

    private static func fetch(_ list: String, _ db: Database) throws -> [TodoItem] {
        try TodoItem.fetchAll(db, sql: "SELECT * FROM todo WHERE list = ? ORDER BY position, id", arguments: [list])
    }
}
