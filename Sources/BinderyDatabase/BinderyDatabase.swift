import Bindery
@_exported import GRDB
import Logging

/// The app's embedded SQLite database (GRDB), handed to ViewModels through
/// the application's services: `try context.services.database()`.
///
/// An app that wants one registers it, opened on first use at `--database`
/// (`bindery.sqlite` in the working directory by default):
/// `app.services.registerDatabase(path: app.configuration.databasePath)`.
/// An app without one links neither this module nor GRDB. It is in WAL mode
/// (readers never wait for the writer) with `synchronous = FULL`: a write
/// transaction that has returned is on disk, so an input that writes in its
/// turn is durable before its POST is answered, and survives `kill -9` or a
/// power cut.
public enum BinderyDatabase {
    /// The database at `path`, created if missing; `:memory:` is a private in-memory one.
    public static func open(path: String) throws -> any DatabaseWriter {
        if path == ":memory:" { return try DatabaseQueue(configuration: configuration) }
        return try DatabasePool(path: path, configuration: configuration)
    }

    /// A private in-memory database (tests).
    public static func inMemory() throws -> any DatabaseWriter {
        try DatabaseQueue(configuration: configuration)
    }

    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // WAL's default, NORMAL, may lose the last transactions on a power
            // cut; FULL syncs the log at every commit.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return configuration
    }
}

extension Services {
    /// The app's database (see `BinderyDatabase`).
    public func database() throws -> any DatabaseWriter {
        try get((any DatabaseWriter).self)
    }

    /// Registers the app's database at `path` (`:memory:` keeps it in
    /// memory), opened the first time a ViewModel asks for it, and said so on `logger`.
    public func registerDatabase(path: String, logger: Logger? = nil) {
        register((any DatabaseWriter).self) { _ in
            let database = try BinderyDatabase.open(path: path)
            logger?.info("database opened", metadata: ["path": "\(path)"])
            return database
        }
    }
}
