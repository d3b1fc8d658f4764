import Bindery
import BinderyDatabase
import BinderyPostgres
import Foundation

/// The todo lists in the app's database, and their live values: every
/// ViewModel of a list reads the same relay, so a change made through one
/// session (or curl) reaches every page on that list at once.
///
/// Each change is one transaction, and a method returns at once: its
/// `completion` runs once the change has committed and every reader of the
/// list has it, or with why it failed. An input that holds its answer until
/// then (`AnswerHold`) is durable before its POST is answered, and no thread
/// of the sessions' pool waits for the disk meanwhile. In SQLite (the
/// default) writes go through the database's writer thread and changes that
/// arrive together are committed together (`GroupCommit`). In PostgreSQL (a
/// cluster) each change takes its list's lock and offset (`ChangeLog`), so
/// that the nodes apply every list's changes in one order and a page on any
/// node sees those made on any other.
///
/// A change reads and writes the rows it touches, and the list's new value
/// is the old one with that change (a `KeyedList`): what every session that
/// shows the list sends its streams, encoded once, is the change, whatever
/// the list's length.
///
/// Thread safety: every method may be called from any thread; completions
/// run on the database's thread and must not block.
public final class TodoStore: @unchecked Sendable {
    /// What a change's caller hears once it is committed, or why it failed.
    public typealias Completion = @Sendable (Result<Void, Error>) -> Void

    /// Longest title accepted.
    public static let maxTitleLength = 200

    private let backend: any TodoBackend

    /// The store of the SQLite `database`, migrated to the current schema.
    public init(database: any DatabaseWriter) throws {
        backend = try SQLiteTodoBackend(database: database)
    }

    /// The store in the PostgreSQL database at `url`, its table made if
    /// missing; its lists follow `changes`, which the app starts.
    public init(postgres url: String, changes: ChangeLog) throws {
        backend = try PostgresTodoBackend(url: url, changes: changes)
    }

    /// The items of `list`, live: the current ones first, then each change.
    public func items(of list: String) throws -> BehaviorRelay<KeyedList<TodoItem>> {
        try backend.items(of: list)
    }

    /// Settles the input whose change ended with `result`: its answer
    /// (`answer`, held until then) is released, failing if the change failed for
    /// a reason other than the store's refusal (the database's: a full disk), and
    /// a refusal is said to `refused` (a person's words, not the database's).
    public static func settle(_ result: Result<Void, Error>, answer: AnswerHold?, refused: (String) -> Void) {
        switch result {
        case .success:
            answer?.release()
        case .failure(let refusal as TodoError):
            refused(refusal.description)
            answer?.release()
        case .failure(let error):
            answer?.release(failing: error)
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
    public func add(_ title: String, to list: String, completion: @escaping Completion) {
        backend.change(list, completion: completion) { rows, items in
            let end = (items.last?.position ?? -1) + 1
            let id = try rows.insert(title, at: end, in: list)
            return items.inserting(TodoItem(id: id, list: list, title: title, done: false, position: end))
        }
    }

    /// Renames item `id` of `list`.
    public func rename(_ id: Int64, in list: String, to title: String, completion: @escaping Completion) {
        backend.change(list, completion: completion) { rows, items in
            guard let index = items.index(of: id) else { return items }
            try rows.setTitle(title, of: id, in: list)
            var item = items[index]
            item.title = title
            return items.updating(item)
        }
    }

    /// Flips item `id` of `list` between done and not done.
    public func toggle(_ id: Int64, in list: String, completion: @escaping Completion) {
        backend.change(list, completion: completion) { rows, items in
            guard let index = items.index(of: id) else { return items }
            try rows.toggle(id, in: list)
            var item = items[index]
            item.done.toggle()
            return items.updating(item)
        }
    }

    /// Marks every item of `list` done, or every one not done if all are.
    public func toggleAll(in list: String, completion: @escaping Completion) {
        backend.change(list, completion: completion) { rows, items in
            let done = items.contains { !$0.done }
            try rows.setAllDone(done, in: list)
            return items.applying(
                items.enumerated().filter { $0.element.done != done }.map { index, item in
                    var item = item
                    item.done = done
                    return .update(item, at: index)
                })
        }
    }

    /// Deletes item `id` of `list`.
    public func delete(_ id: Int64, from list: String, completion: @escaping Completion) {
        backend.change(list, completion: completion) { rows, items in
            try rows.delete(id, from: list)
            return items.removing(id: id)
        }
    }

    /// Moves item `id` of `list` to index `index` (clamped), the others closing up.
    public func move(_ id: Int64, in list: String, to index: Int, completion: @escaping Completion) {
        backend.change(list, completion: completion) { rows, items in
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
                try rows.setPosition(position, of: order[index].id)
                var item = order[index]
                item.position = position
                changes.append(.update(item, at: index))
            }
            return items.applying(changes)
        }
    }

    /// Deletes the done items of `list`.
    public func clearCompleted(in list: String, completion: @escaping Completion) {
        backend.change(list, completion: completion) { rows, items in
            try rows.deleteDone(in: list)
            // From the end, so that each index is the item's as the removals before it left the list.
            return items.applying(items.enumerated().reversed().filter(\.element.done).map { .remove(id: $0.element.id, at: $0.offset) })
        }
    }
}
