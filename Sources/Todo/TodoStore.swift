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
/// A change reads and writes the rows it touches, and the list's new value
/// is the old one with that change (a `KeyedList`): what every session that
/// shows the list sends its streams, encoded once, is the change, whatever
/// the list's length.
///
/// Thread safety: every method may be called from any thread.
public final class TodoStore: @unchecked Sendable {
    /// Longest title accepted.
    public static let maxTitleLength = 200

    private let database: any DatabaseWriter
    private let lock = NSLock()
    private var relays: [String: BehaviorRelay<KeyedList<TodoItem>>] = [:]
    /// Commits the changes that arrive together in one transaction, in order,
    /// and publishes each after the commit: readers never see an older list after a newer one.
    private let commits: GroupCommit
    /// The lists as the changes of the batch being committed left them, not yet published.
    private let uncommittedLists: UncommittedLists

    /// The store of `database`, migrated to the current schema.
    public init(database: any DatabaseWriter) throws {
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

    /// The items of `list`, live: the current ones first, then each change.
    public func items(of list: String) throws -> BehaviorRelay<KeyedList<TodoItem>> {
        if let relay = lock.withLock({ relays[list] }) { return relay }
        let current = try database.read { db in try Self.fetch(list, db) }
        return lock.withLock {
            if let relay = relays[list] { return relay }
            let relay = BehaviorRelay(value: KeyedList(current))
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
        try change(list) { db, items in
            let end = (items.last?.position ?? -1) + 1
            try db.execute(sql: "INSERT INTO todo (list, title, done, position) VALUES (?, ?, 0, ?)", arguments: [list, title, end])
            return items.inserting(TodoItem(id: db.lastInsertedRowID, list: list, title: title, done: false, position: end))
        }
    }

    /// Renames item `id` of `list`.
    public func rename(_ id: Int64, in list: String, to title: String) throws {
        try change(list) { db, items in
            guard let index = items.index(of: id) else { return items }
            try db.execute(sql: "UPDATE todo SET title = ? WHERE id = ? AND list = ?", arguments: [title, id, list])
            var item = items[index]
            item.title = title
            return items.updating(item)
        }
    }

    /// Flips item `id` of `list` between done and not done.
    public func toggle(_ id: Int64, in list: String) throws {
        try change(list) { db, items in
            guard let index = items.index(of: id) else { return items }
            try db.execute(sql: "UPDATE todo SET done = NOT done WHERE id = ? AND list = ?", arguments: [id, list])
            var item = items[index]
            item.done.toggle()
            return items.updating(item)
        }
    }

    /// Marks every item of `list` done, or every one not done if all are.
    public func toggleAll(in list: String) throws {
        try change(list) { db, items in
            let done = items.contains { !$0.done }
            try db.execute(sql: "UPDATE todo SET done = ? WHERE list = ?", arguments: [done, list])
            return items.applying(
                items.enumerated().filter { $0.element.done != done }.map { index, item in
                    var item = item
                    item.done = done
                    return .update(item, at: index)
                })
        }
    }

    /// Deletes item `id` of `list`.
    public func delete(_ id: Int64, from list: String) throws {
        try change(list) { db, items in
            try db.execute(sql: "DELETE FROM todo WHERE id = ? AND list = ?", arguments: [id, list])
            return items.removing(id: id)
        }
    }

    /// Moves item `id` of `list` to index `index` (clamped), the others closing up.
    public func move(_ id: Int64, in list: String, to index: Int) throws {
        try change(list) { db, items in
            guard let from = items.index(of: id) else { return items }
            let to = max(0, min(index, items.count - 1))
            guard to != from else { return items }
            // The item moves; those between its two places shift by one. They take the
            // positions that range had, in their new order: positions increase along
            // the list (with gaps where items were deleted), and nothing outside moves.
            let range = min(from, to)...max(from, to)
            let positions = items[range].map(\.position)
            var changes: [ListChange<TodoItem>] = [.move(id: id, from: from, to: to)]
            var order = items.items
            order.insert(order.remove(at: from), at: to)
            for (index, position) in zip(range, positions) where order[index].position != position {
                try db.execute(sql: "UPDATE todo SET position = ? WHERE id = ?", arguments: [position, order[index].id])
                var item = order[index]
                item.position = position
                changes.append(.update(item, at: index))
            }
            return items.applying(changes)
        }
    }

    /// Deletes the done items of `list`.
    public func clearCompleted(in list: String) throws {
        try change(list) { db, items in
            try db.execute(sql: "DELETE FROM todo WHERE list = ? AND done", arguments: [list])
            // From the end, so that each index is the item's as the removals before it left the list.
            return items.applying(items.enumerated().reversed().filter(\.element.done).map { .remove(id: $0.element.id, at: $0.offset) })
        }
    }

    /// Runs `write` in one transaction with the list's current items, and
    /// gives every reader of `list` what it returns: those items with its
    /// change. Readers get them on their own schedulers (a ViewModel reads
    /// the relay as a `Driver`), so publishing never runs another session's code here.
    ///
    /// Changes that arrive together are committed together (`GroupCommit`):
    /// each starts from the list as the one before it in the batch left it,
    /// and each is published, in order, once the batch has committed; the
    /// call returns then.
    private func change(_ list: String, _ write: @escaping @Sendable (Database, KeyedList<TodoItem>) throws -> KeyedList<TodoItem>) throws {
        let relay = try items(of: list)
        let uncommitted = uncommittedLists
        _ = try commits.write(
            { db in
                let current = uncommitted.lists[list] ?? relay.value
                let changed = try write(db, current)
                uncommitted.lists[list] = changed
                return (current.version, changed)
            },
            committed: { (before: UInt64, changed: KeyedList<TodoItem>) in
                if changed.version != before { relay.accept(changed) }
            })
    }

    private static func fetch(_ list: String, _ db: Database) throws -> [TodoItem] {
        try TodoItem.fetchAll(db, sql: "SELECT * FROM todo WHERE list = ? ORDER BY position, id", arguments: [list])
    }
}

/// The lists a batch's changes have made, not yet committed: touched only by
/// the batch's committer, inside its transaction and after it.
private final class UncommittedLists: @unchecked Sendable {
    var lists: [String: KeyedList<TodoItem>] = [:]
    func clear() { lists.removeAll() }
}
