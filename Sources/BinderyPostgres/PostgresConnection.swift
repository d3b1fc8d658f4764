import CLibPQ
import Foundation

/// A value sent to PostgreSQL or read from it.
public enum PostgresValue: Sendable, Equatable {
    case null
    case text(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case bytes(Data)

    public var int: Int64? { if case .int(let value) = self { value } else { nil } }
    public var text: String? { if case .text(let value) = self { value } else { nil } }
    public var bytes: Data? { if case .bytes(let value) = self { value } else { nil } }
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var double: Double? {
        switch self {
        case .double(let value): value
        case .int(let value): Double(value)
        default: nil
        }
    }
}

/// What PostgreSQL (or the way to it) refused.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    /// What the server or libpq said.
    public let message: String
    /// The SQLSTATE code, when the server answered (`40001`: serialization failure).
    public let sqlState: String?
    /// Whether the connection is gone: the statement may or may not have run.
    public let connectionLost: Bool
    /// The connection was lost as a transaction's `COMMIT` was sent: the
    /// transaction may or may not have committed.
    public var atCommit = false

    /// What PostgreSQL or libpq said; `sqlState` if the server answered.
    public init(message: String, sqlState: String?, connectionLost: Bool) {
        self.message = message
        self.sqlState = sqlState
        self.connectionLost = connectionLost
    }

    public var description: String { sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message }
}

/// The rows a statement returned, each a list of values in the order of the
/// statement's columns.
public struct PostgresRows: Sendable, RandomAccessCollection {
    public let columns: [String]
    private let rows: [[PostgresValue]]

    init(columns: [String], rows: [[PostgresValue]]) {
        self.columns = columns
        self.rows = rows
    }

    public var startIndex: Int { rows.startIndex }
    public var endIndex: Int { rows.endIndex }
    public subscript(index: Int) -> [PostgresValue] { rows[index] }
}

/// One connection to PostgreSQL through libpq: every call blocks its thread
/// until the server has answered, so a connection belongs to one thread at
/// a time, and that thread is one that may wait (`PostgresDatabase`'s queue,
/// a listener's), never a request's or a session's.
public final class PostgresConnection {
    private let handle: OpaquePointer

    /// Connects to `url` (`postgres://user@host:port/database`, or any libpq
    /// connection string). Unless the URL says otherwise, a connect gives up
    /// after 5 s and a server that stops answering (a network gone, a paused
    /// host) is noticed within about 10 s (`defaults`): a connection that
    /// hangs would hold its queue, and every caller behind it, for good.
    public init(url: String) throws {
        guard let handle = PQconnectdb(Self.withDefaults(url)) else {
            throw PostgresError(message: "libpq could not allocate a connection", sqlState: nil, connectionLost: true)
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(handle)
            throw PostgresError(message: "cannot connect to PostgreSQL: \(message)", sqlState: nil, connectionLost: true)
        }
        self.handle = handle
        // Notices (a NOTICE from CREATE TABLE IF NOT EXISTS) go nowhere instead of stderr.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// libpq's settings a Bindery connection has unless its URL names them:
    /// a connect's limit, and TCP keep-alives and a send limit that notice a
    /// server gone silent.
    static let defaults = [
        ("connect_timeout", "5"), ("keepalives_idle", "5"), ("keepalives_interval", "2"), ("keepalives_count", "3"),
        ("tcp_user_timeout", "10000"),
    ]

    /// `url` with `defaults` it does not set: as query parameters of a
    /// `postgres://` URL, as `key=value` words of a connection string.
    package static func withDefaults(_ url: String) -> String {
        let missing = defaults.filter { !url.contains("\($0.0)=") }
        guard !missing.isEmpty else { return url }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            let separator = url.contains("?") ? "&" : "?"
            return url + separator + missing.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        }
        return url + " " + missing.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
    }

    /// Whether the connection still works, as far as libpq knows.
    public var isOK: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Whether the server is still there, as far as an idle connection that
    /// does not listen can tell without a round trip: nothing is due on it, so
    /// a socket with something to read holds the server's goodbye (it
    /// restarted, or ended this connection: its last words, then the end).
    var looksAlive: Bool {
        guard isOK else { return false }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 0
    }

    /// The connection's socket, to wait on for notifications.
    var socket: Int32 { PQsocket(handle) }

    /// The server process serving this connection (`pg_backend_pid()`).
    public var backendPID: Int32 { PQbackendPID(handle) }

    /// Runs `sql` with `$1`, `$2`… bound to `parameters`; the rows it returned.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws -> PostgresRows {
        // Text for everything but bytes, which go as they are; the server
        // infers each parameter's type from where it stands.
        var buffers: [[CChar]?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for parameter in parameters {
            switch parameter {
            case .null:
                buffers.append(nil)
                lengths.append(0)
                formats.append(0)
            case .text(let text): append(text)
            case .int(let value): append(String(value))
            case .double(let value): append(String(value))
            case .bool(let value): append(value ? "t" : "f")
            case .bytes(let data):
                // Never an empty buffer: its address could be nil, which libpq reads as NULL.
                buffers.append(data.isEmpty ? [0] : data.map { CChar(bitPattern: $0) })
                lengths.append(Int32(data.count))
                formats.append(1)
            }
        }
        func append(_ text: String) {
            buffers.append(Array(text.utf8CString))
            lengths.append(0)
            formats.append(0)
        }
        let result = withPointers(to: buffers) { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values, lengths, formats, 1)
        }
        defer { PQclear(result) }
        guard let result else { throw lastError() }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return PostgresRows(columns: [], rows: [])
        case PGRES_TUPLES_OK:
            return try Self.rows(of: result)
        default:
            let message = String(cString: PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            throw PostgresError(message: message, sqlState: state, connectionLost: !isOK)
        }
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    @discardableResult
    public func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body(self)
            do {
                try execute("COMMIT")
            } catch var error as PostgresError where error.connectionLost {
                error.atCommit = true
                throw error
            }
            return value
        } catch {
            if isOK { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Notifications that have arrived (channel, payload), after reading what the socket holds.
    func notifications() throws -> [(String, String)] {
        guard PQconsumeInput(handle) == 1 else { throw lastError() }
        var payloads: [(String, String)] = []
        while let notify = PQnotifies(handle) {
            payloads.append((String(cString: notify.pointee.relname), String(cString: notify.pointee.extra)))
            PQfreemem(notify)
        }
        return payloads
    }

    private func lastError() -> PostgresError {
        let message = String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
        return PostgresError(message: message.isEmpty ? "PostgreSQL did not answer" : message, sqlState: nil, connectionLost: !isOK)
    }

    private static func rows(of result: OpaquePointer) throws -> PostgresRows {
        let rowCount = Int(PQntuples(result))
        let columnCount = Int(PQnfields(result))
        let columns = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        let types = (0..<columnCount).map { PQftype(result, Int32($0)) }
        var rows: [[PostgresValue]] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<Int32(rowCount) {
            var values: [PostgresValue] = []
            values.reserveCapacity(columnCount)
            for column in 0..<Int32(columnCount) {
                if PQgetisnull(result, row, column) == 1 {
                    values.append(.null)
                    continue
                }
                let length = Int(PQgetlength(result, row, column))
                let bytes = UnsafeRawBufferPointer(start: PQgetvalue(result, row, column), count: length)
                values.append(try value(of: types[Int(column)], binary: bytes, column: columns[Int(column)]))
            }
            rows.append(values)
        }
        return PostgresRows(columns: columns, rows: rows)
    }

    /// A column in binary format, by its type's OID (pg_type.dat).
    private static func value(of type: Oid, binary bytes: UnsafeRawBufferPointer, column: String) throws -> PostgresValue {
        func integer<T: FixedWidthInteger>(_: T.Type) -> Int64 {
            var value: T = 0
            withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: bytes) }
            return Int64(T(bigEndian: value))
        }
        switch type {
        case 16: return .bool(bytes.first == 1)
        case 17: return .bytes(Data(bytes))
        case 20: return .int(integer(Int64.self))
        case 21: return .int(integer(Int16.self))
        case 23: return .int(integer(Int32.self))
        case 26: return .int(integer(UInt32.self))
        case 700:
            var bits: UInt32 = 0
            withUnsafeMutableBytes(of: &bits) { $0.copyMemory(from: bytes) }
            return .double(Double(Float(bitPattern: UInt32(bigEndian: bits))))
        case 701:
            var bits: UInt64 = 0
            withUnsafeMutableBytes(of: &bits) { $0.copyMemory(from: bytes) }
            return .double(Double(bitPattern: UInt64(bigEndian: bits)))
        case 18, 19, 25, 1042, 1043: return .text(String(decoding: bytes, as: UTF8.self))
        case 2278: return .null  // void
        default:
            throw PostgresError(
                message: "column '\(column)' has a type (oid \(type)) Bindery does not read; cast it to text", sqlState: nil, connectionLost: false)
        }
    }
}

/// Calls `body` with C pointers to `buffers` (nil where a buffer is nil), valid during the call.
private func withPointers<R>(to buffers: [[CChar]?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    func next(_ index: Int, _ pointers: [UnsafePointer<CChar>?]) -> R {
        guard index < buffers.count else { return body(pointers) }
        guard let buffer = buffers[index] else { return next(index + 1, pointers + [nil]) }
        return buffer.withUnsafeBufferPointer { next(index + 1, pointers + [$0.baseAddress]) }
    }
    return next(0, [])
}
