import Bindery
import BinderyDatabase
import BinderyPostgres

/// Where an app keeps what outlives its process, as `--database` says: its
/// sessions (unless `--no-session-store`), its browsers' sign-ins, and the
/// app's own stores, which take it from `BinderyApp.database()`.
public enum AppDatabase: Sendable {
    /// A SQLite file (the default, `bindery.sqlite`): one process's.
    case sqlite(any DatabaseWriter)
    /// A cluster's PostgreSQL (`postgres://…`): this process is one of its
    /// nodes (`Application.joinCluster`); `changes` is the cluster's change
    /// log, through which the app's own shared stores tell every node.
    case postgres(url: String, changes: ChangeLog)
}

extension BinderyApp {
    /// Opens the app's database where `--database` says, once, and keeps the
    /// app's sessions (unless `--no-session-store`) and its browsers' sign-ins
    /// there; a `postgres://` URL makes this process a node of that database's
    /// cluster. `run` opens it if the app has not: every app keeps its sessions
    /// across a restart. An app whose own stores live there calls it first:
    ///
    /// ```swift
    /// switch try app.database() {
    /// case .sqlite(let database): app.services.register(try NotesStore(database: database))
    /// case .postgres(let url, let changes): app.services.register(try NotesStore(postgres: url, changes: changes))
    /// }
    /// ```
    @discardableResult
    public func database() throws -> AppDatabase {
        try openedDatabase.withLock { opened in
            if let opened { return opened }
            let location = configuration.databasePath
            let logger = configuration.runtime.logger
            let database: AppDatabase
            if PostgresDatabase.isURL(location) {
                let changes = try application.joinCluster(postgres: location, keepingSessions: configuration.keepsSessions, logger: logger)
                logger.info("database opened", metadata: ["postgres": "\(PostgresDatabase.redacted(location))"])
                database = .postgres(url: location, changes: changes)
            } else {
                let writer = try BinderyDatabase.open(path: location)
                logger.info("database opened", metadata: ["path": "\(location)"])
                if configuration.keepsSessions { try application.keepSessions(in: writer) }
                try application.keepSignIns(in: writer)
                database = .sqlite(writer)
            }
            opened = database
            return database
        }
    }
}
