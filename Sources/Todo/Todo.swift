import Bindery
import BinderyDatabase
import Foundation

/// The todo app, as a user registers their own: only Bindery's public API,
/// the database from the application's services.
public enum Todo {
    /// What `POST /api/todos` takes: `{"list": "groceries"}` (default `"default"`).
    struct Parameters: Decodable { let list: String? }

    /// Registers `todos` (and its edit screen, `todo-edit`) with `application`.
    public static func register(in application: Application) {
        // One store per application, over its database, made on first use.
        if !application.services.contains(TodoStore.self) {
            application.services.register(TodoStore.self) { services in try TodoStore(database: try services.database()) }
        }
        application.register("todos", summary: "RxTodo on SQLite: a shared, durable todo list per list id ({\"list\": \"groceries\"}).") { context in
            let list = try context.parameters(as: Parameters.self).list ?? "default"
            guard (1...64).contains(list.count), list.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw BinderyError(.invalidPayload, "creation parameters: field 'list': 1 to 64 letters, digits, - or _")
            }
            return try TodoListViewModel(list: list, store: try context.services.get(TodoStore.self))
        }
        application.register("todo-edit", summary: "The edit screen a todo list presents for one item.") { context in
            // Made by the list (`editing`); created directly it edits nothing useful.
            TodoEditViewModel(item: TodoItem(id: nil, list: "default", title: "", done: false, position: 0), store: try context.services.get(TodoStore.self))
        }
    }
}
