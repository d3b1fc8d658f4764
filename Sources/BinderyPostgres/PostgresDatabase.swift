import Bindery
import Foundation
import Logging

/// A PostgreSQL database as one part of the app uses it: one connection and
/// the one serial queue that uses it, so that a caller's statements run in
/// order and never two at once. A connection that was lost is made again at
/// the next call.
///
/// Each user (the session store, a store of the app's, the listener) has a
/// `PostgresDatabase` of its own: a node holds a few connections, however
/// many requests it serves, and only this queue's thread waits for the server.
public final class PostgresDatabase: @unchecked Sendable {
    /// The URL it connects to.
    public let url: String
    private let queue: DispatchQueue
    // Touched only on `queue`.
    private var connection: PostgresConnection?
    /// Whether the inputs' receipts' table is known to be there, and how many were recorded.
    private var receiptsPrepared = false
    private var receiptsRecorded = 0
    /// The last failed connect, how many in a row, and what libpq said.
    private var lastFailure: (at: ContinuousClock.Instant, count: Int, message: String)?

    /// The database at `url`; `name` labels its queue. Nothing connects until the first call.
    public init(url: String, name: String) {
        self.url = url
        queue = DispatchQueue(label: "bindery.postgres.\(name)")
    }

    /// Runs `body` with the connection on this database's queue and returns
    /// what it returned; the caller's thread waits (call it only from one that may).
    public func sync<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try queue.sync { try run(body) }
    }

    /// Runs `body` with the connection on this database's queue, later.
    public func async(_ body: @escaping @Sendable (Result<PostgresConnection, PostgresError>) -> Void) {
        queue.async { [self] in
            do {
                try run { body(.success($0)) }
            } catch let error as PostgresError {
                body(.failure(error))
            } catch {
                body(.failure(PostgresError(message: "\(error)", sqlState: nil, connectionLost: false)))
            }
        }
    }

    /// Runs `body` in one transaction on this database's queue.
    @discardableResult
    public func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try sync { try $0.transaction(body) }
    }

    /// Runs `body` in one transaction on this database's queue, later, then
    /// `completion` there with what it returned or threw: the caller's thread never waits.
    ///
    /// An input that came with a client's key (`Idempotency-Key`) has its
    /// receipt recorded in the transaction (table `bindery_input_receipt`,
    /// kept a day): applied again, it finds the receipt, and the transaction
    /// is undone and its input answered as a repeat.
    ///
    /// Called in an input's turn, it holds the input's answer until
    /// `completion` has run (`AnswerHold`); if the database failed the
    /// transaction (gone, restarting, full: `BinderyError.postgresFailure`),
    /// the input is answered with that failure, not 200.
    public func asyncTransaction<T>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T, completion: @escaping @Sendable (Result<T, Error>) -> Void
    ) {
        let answer = AnswerHold.take()
        let receipt = InputReceipt.take()
        queue.async { [self] in
            let result = Result {
                try run { db in
                    if let receipt { try prepareReceipts(db) }
                    return try db.transaction { db in
                        if let receipt { try Self.record(receipt, in: db) }
                        return try body(db)
                    }
                }
            }
            completion(result)
            if case .failure(let error) = result, let failure = error as? BinderyError ?? BinderyError.postgresFailure(error) {
                answer?.release(failing: failure)
            } else {
                answer?.release()
            }
        }
    }

    /// Brings the schema (the receipts' table among it) up to date the first time, and forgets receipts older
    /// than a day now and then. On `queue`.
    private func prepareReceipts(_ db: PostgresConnection) throws {
        if !receiptsPrepared {
            try PostgresSchema.migrate(db)
            receiptsPrepared = true
        }
        receiptsRecorded += 1
        if receiptsRecorded % 1_000 == 1 { try db.execute("DELETE FROM bindery_input_receipt WHERE at < now() - interval '1 day'") }
    }

    /// Records `receipt` in `db`'s transaction; `BinderyError.Code.alreadyApplied` if it is there already.
    private static func record(_ receipt: InputReceipt, in db: PostgresConnection) throws {
        do {
            try db.execute("INSERT INTO bindery_input_receipt (session, key) VALUES ($1, $2)", [.text(receipt.session), .text(receipt.key)])
        } catch let error as PostgresError where error.sqlState == "23505" {
            throw BinderyError(.alreadyApplied, "this input was applied before", applied: true)
        }
    }

    /// Runs the schema `statements` (`CREATE TABLE IF NOT EXISTS …`) in one
    /// transaction, holding a lock every node takes for its schema: nodes that
    /// start together do not race to create the same table.
    public func createSchema(_ statements: String...) throws {
        try transaction { db in
            try db.execute("SELECT pg_advisory_xact_lock(7302351)")
            for statement in statements { try db.execute(statement) }
        }
    }

    private func run<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try connect()
        // Lost during `body`, whether `body` threw or caught it: the next call connects anew.
        defer { if !connection.isOK { self.connection = nil } }
        return try body(connection)
    }

    /// The connection, made now if there is none (or it was closed while it
    /// idled); while the server is away,
    /// a new attempt at most every `backoff` (50 ms doubling to 2 s), failing
    /// at once in between: a call meanwhile is refused fast, not after a
    /// connect that cannot succeed.
    private func connect() throws -> PostgresConnection {
        // A server that restarted or ended this connection while it idled has
        // closed its socket: found out here, not by the caller's first statement.
        if let connection, connection.looksAlive { return connection }
        connection = nil
        if let lastFailure, ContinuousClock.now < lastFailure.at + backoff(lastFailure.count) {
            throw PostgresError(message: lastFailure.message, sqlState: nil, connectionLost: true)
        }
        do {
            let connection = try PostgresConnection(url: url)
            self.connection = connection
            lastFailure = nil
            return connection
        } catch let error as PostgresError {
            lastFailure = (ContinuousClock.now, (lastFailure?.count ?? 0) + 1, error.message)
            throw error
        }
    }

    private func backoff(_ failures: Int) -> Duration { .milliseconds(min(2_000, 50 << min(failures - 1, 6))) }

    /// `url` without its password, for logs.
    public static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? "postgres://***"
    }

    /// Whether `url` names a PostgreSQL database rather than a SQLite file.
    public static func isURL(_ url: String) -> Bool {
        url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")
    }
}
