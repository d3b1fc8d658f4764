import BinderyAccounts
import BinderyDatabase
import BinderyPostgres
import BinderyServer
import Examples
import Foundation
import Todo

/// The examples and the todo list in one `BinderyApp`: what `bindery serve`
/// runs, what the benchmarks serve and what the server tests start, so all
/// three are the same app a user's own would be.
public enum ExampleApp {
    /// An app of the examples, the todo list, and whatever `register` adds;
    /// throws if its database cannot be opened.
    public static func make(_ app: BinderyApp, register: (Application) -> Void = { _ in }) throws -> BinderyApp {
        // The todo list and the accounts in the app's database, where the app keeps its sessions.
        switch try app.database() {
        case .postgres(let url, let changes):
            // A cluster's node: the lists' changes through its change log.
            app.services.register(changes)
            app.services.register(try TodoStore(postgres: url, changes: changes))
            app.services.register(try Accounts(store: PostgresAccountStore(url: url)))
        case .sqlite(let database):
            app.services.register(database, as: (any DatabaseWriter).self)
            app.services.register(try Accounts(database: database))
        }
        Examples.register(in: app.application)
        Todo.register(in: app.application)
        // Pages at real URLs: the path gives the ViewModel its creation parameters.
        app.page("/profile/:userID(int)", file: "profile.html", viewModel: "profile")
        app.page("/todos/:list", file: "todos.html", viewModel: "todos")
        // A page only for a signed-in browser; another goes to the sign-in page first.
        app.page("/me", file: "me.html", viewModel: "me", needsSignIn: true)
        app.signInPage("/signin.html")
        // The avatar page's file: an image of at most 256 KiB.
        app.upload("photo", of: "avatar", maxBytes: 262_144, contentTypes: ["image/png", "image/jpeg", "image/gif", "image/webp"])
        register(app.application)
        return app
    }

    /// Serves the app with options from `arguments` and the environment until
    /// SIGINT or SIGTERM; exits 1 if it cannot start.
    public static func serve(_ arguments: [String], command: String = "bindery serve", register: (Application) -> Void = { _ in }) {
        do {
            let app = try make(BinderyApp(arguments: arguments, command: command), register: register)
            try app.run()
        } catch {
            FileHandle.standardError.write(Data("\(command): \(error)\n".utf8))
            exit(1)
        }
    }

    /// The app's server with `configuration`, not yet started (tests).
    public static func makeServer(_ configuration: ServerConfiguration, register: (Application) -> Void = { _ in }) throws -> Server {
        try make(BinderyApp(configuration: configuration), register: register).makeServer()
    }
}
