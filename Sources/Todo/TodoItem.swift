import BinderyDatabase

/// One item of a todo list, as the page shows it.
public struct TodoItem: Codable, Equatable, Identifiable, Sendable, FetchableRecord, PersistableRecord {
    public var id: Int64?
    public var list: String
    public var title: String
    public var done: Bool
    public var position: Int

    public static let databaseTableName = "todo"
}
