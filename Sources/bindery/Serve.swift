import BinderyServer
import Examples
import Todo
import Foundation

/// `bindery [serve] [options]`: the examples, served by the same `BinderyApp`
/// a user's own app runs, with the same options (`ServeOptions`).
func serveExamples(_ arguments: [String], command: String = "bindery serve", register: (Application) -> Void = { _ in }) {
    let app = BinderyApp(arguments: arguments, command: command)
    Examples.register(in: app.application)
    Todo.register(in: app.application)
    register(app.application)
    do {
        try app.run()
    } catch {
        FileHandle.standardError.write(Data("\(command): \(error)\n".utf8))
        exit(1)
    }
}
