import BinderyPostgres
import BinderyServer
import Conduit
import Foundation

// Conduit, RealWorld's Medium clone, on Bindery: `conduit` serves it (on port
// 8081, its pages from its own resources, its data in conduit.sqlite, unless the
// options say otherwise: `conduit --help`); `conduit seed` fills a new database
// with users, articles and comments first. With `--database postgres://…` it is
// a node of a cluster: its data, sessions and sign-ins in PostgreSQL, shared
// with every other node on that database.
var arguments = Array(CommandLine.arguments.dropFirst())
let seeding = arguments.first == "seed"
if seeding { arguments.removeFirst() }
var defaults = BinderyApp.defaultConfiguration
defaults.port = 8081
defaults.publicDirectory = Bundle.module.url(forResource: "Public", withExtension: nil) ?? URL(fileURLWithPath: "Sources/conduit/Public")
defaults.databasePath = "conduit.sqlite"
let app = BinderyApp(arguments: arguments, defaults: defaults, command: "conduit")
let logger = app.configuration.runtime.logger

do {
    // Its data where the app keeps its sessions and sign-ins: SQLite, or a cluster's PostgreSQL.
    let (store, accounts) =
        switch try app.database() {
        case .sqlite(let database): try Conduit.open(database: database, in: app.services)
        case .postgres(let url, let changes): try Conduit.open(postgres: url, changes: changes, in: app.services)
        }
    if seeding {
        let task = Task { try await Seed.run(store: store, accounts: accounts) }
        let written = try await task.value
        print(written == 0 ? "conduit: the database has users already; nothing seeded" : "conduit: seeded \(written) articles")
        exit(0)
    }
    Conduit.register(in: app.application)
    // The spec's routes, as real paths.
    app.page("/login", file: "login.html", viewModel: "login")
    app.page("/register", file: "register.html", viewModel: "register")
    app.page("/settings", file: "settings.html", viewModel: "settings", needsSignIn: true)
    app.page("/editor", file: "editor.html", viewModel: "editor", needsSignIn: true)
    app.page("/editor/:slug", file: "editor.html", viewModel: "editor", needsSignIn: true)
    app.page("/article/:slug", file: "article.html", viewModel: "article")
    app.page("/profile/:username", file: "profile.html", viewModel: "profile")
    app.page("/profile/:username/favorites", file: "profile.html", viewModel: "profile", parameters: ["favorites": true])
    app.signInPage("/login")
    logger.info("conduit", metadata: ["database": "\(PostgresDatabase.redacted(app.configuration.databasePath))"])
    try app.run()
} catch {
    FileHandle.standardError.write(Data("conduit: \(error)\n".utf8))
    exit(1)
}
