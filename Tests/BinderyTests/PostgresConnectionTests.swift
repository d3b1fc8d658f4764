import BinderyLoopback
import BinderyPostgres
import Foundation
import Logging
import Synchronization
import XCTest

final class PostgresConnectionTests: XCTestCase {
    func testValuesGoAndComeBackAsTheyWere() throws {
        let db = try PostgresConnection(url: try TestPostgres.freshDatabase())
        try db.execute("CREATE TABLE t (i bigint, s text, b bytea, f boolean, d double precision, n integer)")
        let bytes = Data([0, 1, 2, 255, 0])
        try db.execute(
            "INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6)",
            [.int(-42), .text("zürich 'quoted' \\ é"), .bytes(bytes), .bool(true), .double(2.5), .null])
        try db.execute("INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6)", [.int(Int64.max), .text(""), .bytes(Data()), .bool(false), .double(-0.125), .int(7)])
        let rows = try db.execute("SELECT i, s, b, f, d, n FROM t ORDER BY i")
        XCTAssertEqual(rows.columns, ["i", "s", "b", "f", "d", "n"])
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(rows[0], [.int(-42), .text("zürich 'quoted' \\ é"), .bytes(bytes), .bool(true), .double(2.5), .null])
        XCTAssertEqual(rows[1], [.int(Int64.max), .text(""), .bytes(Data()), .bool(false), .double(-0.125), .int(7)])
    }

    func testARefusedStatementSaysWhyAndTheConnectionGoesOn() throws {
        let db = try PostgresConnection(url: try TestPostgres.freshDatabase())
        try db.execute("CREATE TABLE t (id integer PRIMARY KEY)")
        try db.execute("INSERT INTO t VALUES (1)")
        XCTAssertThrowsError(try db.execute("INSERT INTO t VALUES (1)")) { error in
            XCTAssertEqual((error as? PostgresError)?.sqlState, "23505")
            XCTAssertEqual((error as? PostgresError)?.connectionLost, false)
        }
        XCTAssertEqual(try db.execute("SELECT count(*) FROM t").first?[0], .int(1))
    }

    func testATransactionThatThrowsLeavesNothing() throws {
        let db = try PostgresConnection(url: try TestPostgres.freshDatabase())
        try db.execute("CREATE TABLE t (id integer)")
        struct Refused: Error {}
        XCTAssertThrowsError(
            try db.transaction { db in
                try db.execute("INSERT INTO t VALUES (1)")
                throw Refused()
            })
        try db.transaction { db in try db.execute("INSERT INTO t VALUES (2)") }
        XCTAssertEqual(try db.execute("SELECT id FROM t").map { $0[0] }, [.int(2)])
    }

    func testAnUnreachableServerIsAnErrorNotACrash() {
        XCTAssertThrowsError(try PostgresConnection(url: "postgres://bindery@127.0.0.1:1/none?connect_timeout=2")) { error in
            XCTAssertEqual((error as? PostgresError)?.connectionLost, true)
        }
    }

    func testADatabaseConnectsAgainAfterItsConnectionIsTerminated() throws {
        let url = try TestPostgres.freshDatabase()
        let database = PostgresDatabase(url: url, name: "test")
        let pid = try database.sync { $0.backendPID }
        let admin = try PostgresConnection(url: url)
        try admin.execute("SELECT pg_terminate_backend($1::int)", [.int(Int64(pid))])
        let deadline = Date().addingTimeInterval(10)
        while try admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = $1::int", [.int(Int64(pid))]).count > 0, Date() < deadline {
            usleep(10_000)
        }
        // Ended while it idled: noticed before the next statement, which runs on a new connection.
        XCTAssertEqual(try database.sync { try $0.execute("SELECT 1").first?[0] }, .int(1))
        XCTAssertNotEqual(try database.sync { $0.backendPID }, pid)
    }

    func testAConnectionLostUnderACallerThatCaughtTheErrorIsMadeAgain() throws {
        let database = PostgresDatabase(url: try TestPostgres.freshDatabase(), name: "test")
        let pid = try database.sync { db in
            defer { _ = try? db.execute("SELECT pg_terminate_backend(pg_backend_pid())") }
            return db.backendPID
        }
        XCTAssertEqual(try database.sync { try $0.execute("SELECT 1").first?[0] }, .int(1))
        XCTAssertNotEqual(try database.sync { $0.backendPID }, pid)
    }

    func testAConnectionHasLimitsUnlessItsURLSetsThem() {
        let plain = PostgresConnection.withDefaults("postgres://bindery@127.0.0.1:5432/bindery")
        XCTAssertTrue(plain.hasPrefix("postgres://bindery@127.0.0.1:5432/bindery?connect_timeout=5&"), plain)
        XCTAssertTrue(plain.contains("tcp_user_timeout=10000") && plain.contains("keepalives_idle=5"), plain)
        let own = PostgresConnection.withDefaults("postgres://h/db?sslmode=disable&connect_timeout=30")
        XCTAssertTrue(own.hasPrefix("postgres://h/db?sslmode=disable&connect_timeout=30&keepalives_idle=5"), own)
        XCTAssertEqual(own.components(separatedBy: "connect_timeout=").count, 2, "the URL's own is kept, not doubled")
        XCTAssertTrue(PostgresConnection.withDefaults("host=h dbname=db").hasPrefix("host=h dbname=db connect_timeout=5 "))
    }
}

final class PostgresListenerTests: XCTestCase {
    /// Collects what a listener hands over.
    private final class Wakes: Sendable {
        let keys = Mutex<[String?]>([])
        func add(_ key: String?) { keys.withLock { $0.append(key) } }
        func wait(for predicate: ([String?]) -> Bool, seconds: Double = 10) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                let keys = keys.withLock { $0 }
                if predicate(keys) { return true }
                usleep(10_000)
            }
            return false
        }
    }

    func testANotificationWakesWithItsKeyAndALostConnectionWakesToCatchUp() throws {
        let url = try TestPostgres.freshDatabase()
        let wakes = Wakes()
        let listener = PostgresListener(url: url, channels: ["bindery_test"], pollInterval: .seconds(60), logger: Logger(label: "test")) { wakes.add($1) }
        listener.start()
        defer { listener.stop() }
        // Listening: the first wake is the catch-up.
        XCTAssertTrue(wakes.wait { $0.contains(nil) })
        let sender = try PostgresConnection(url: url)
        try sender.execute("SELECT pg_notify('bindery_test', 'todos/default')")
        XCTAssertTrue(wakes.wait { $0.contains("todos/default") })

        // Its connection is terminated: it listens again and wakes without a key, to catch up.
        let before = wakes.keys.withLock { $0.filter { $0 == nil }.count }
        let pid = listener.backendPID
        XCTAssertNotEqual(pid, 0)
        try sender.execute("SELECT pg_terminate_backend($1::int)", [.int(Int64(pid))])
        XCTAssertTrue(wakes.wait { $0.filter { $0 == nil }.count > before })
        XCTAssertTrue(wakes.wait { _ in listener.backendPID != 0 && listener.backendPID != pid })
        try sender.execute("SELECT pg_notify('bindery_test', 'after')")
        XCTAssertTrue(wakes.wait { $0.contains("after") })
    }

    func testWithoutNotificationsItStillWakesEveryPollInterval() throws {
        let url = try TestPostgres.freshDatabase()
        let wakes = Wakes()
        let listener = PostgresListener(url: url, channels: ["bindery_test"], pollInterval: .milliseconds(200), logger: Logger(label: "test")) { wakes.add($1) }
        listener.start()
        XCTAssertTrue(wakes.wait { $0.count >= 3 })
        listener.stop()
        let count = wakes.keys.withLock(\.count)
        usleep(500_000)
        XCTAssertEqual(wakes.keys.withLock(\.count), count, "a stopped listener wakes no one")
    }
}
