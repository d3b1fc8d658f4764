import Foundation

/// One server-sent event as a client sees it.
public struct SSEEvent: Equatable, CustomStringConvertible {
    public var id: String?
    public var event: String = "message"
    public var data: String = ""
    /// The `session` field: which session an event of a multiplexed stream belongs to.
    public var session: String?
    /// An event as the stream would carry it.
    public init(session: String? = nil, id: String? = nil, event: String = "message", data: String = "") {
        self.session = session
        self.id = id
        self.event = event
        self.data = data
    }

    public var description: String { "\(session.map { "[\($0)] " } ?? "")#\(id ?? "-") \(event) \(data)" }
}

/// Our own SSE client: opens the stream on a raw socket, de-chunks the body and
/// parses events by the WHATWG rules (fields, comments, blank-line dispatch).
public final class SSEClient {
    public let socket: Socket
    public let status: Int
    public let headers: [String: String]
    public private(set) var retry: Int?
    public private(set) var comments: [String] = []
    private var pendingLines: [String] = []
    private var chunkRemaining = 0
    private var body = Data()

    /// Opens `path` on 127.0.0.1:`port` with `Accept: text/event-stream`.
    public init(port: UInt16, path: String, headers: [String: String] = [:]) throws {
        let client = HTTPClient(port: port)
        socket = try Socket(port: port)
        var all = headers
        if all["Accept"] == nil { all["Accept"] = "text/event-stream" }
        try client.send("GET", path, headers: all, body: nil, on: socket)
        (status, self.headers) = try client.readHead(socket)
    }

    /// The next event, skipping comments and `retry:`; nil when the stream ends.
    public func next(timeout: TimeInterval = 5) throws -> SSEEvent? {
        var event = SSEEvent()
        var hasField = false
        while let line = try nextBodyLine(timeout: timeout) {
            if line.isEmpty {
                if hasField { return event }
                continue
            }
            if line.hasPrefix(":") {
                comments.append(String(line.dropFirst()))
                continue
            }
            let (field, value) = Self.split(line)
            switch field {
            case "id":
                event.id = value
                hasField = true
            case "event":
                event.event = value
                hasField = true
            case "data":
                event.data = event.data.isEmpty ? value : event.data + "\n" + value
                hasField = true
            case "session":
                event.session = value
                hasField = true
            case "retry": retry = Int(value)
            default: break
            }
        }
        return nil
    }

    /// The next `count` events.
    public func next(_ count: Int, timeout: TimeInterval = 5) throws -> [SSEEvent] {
        var events: [SSEEvent] = []
        while events.count < count, let event = try next(timeout: timeout) { events.append(event) }
        return events
    }

    /// Waits for a comment line (e.g. the heartbeat) and returns it.
    public func nextComment(timeout: TimeInterval = 5) throws -> String? {
        let known = comments.count
        while comments.count == known {
            guard let line = try nextBodyLine(timeout: timeout) else { return nil }
            if line.hasPrefix(":") { comments.append(String(line.dropFirst())) }
        }
        return comments.last
    }

    private static func split(_ line: String) -> (String, String) {
        guard let colon = line.firstIndex(of: ":") else { return (line, "") }
        var value = line[line.index(after: colon)...]
        if value.first == " " { value = value.dropFirst() }
        return (String(line[..<colon]), String(value))
    }

    // The response is chunked; reassemble body lines across chunk boundaries.
    private func nextBodyLine(timeout: TimeInterval) throws -> String? {
        while true {
            if let index = body.firstIndex(of: 0x0A) {
                let line = body[body.startIndex..<index]
                body.removeSubrange(body.startIndex...index)
                return String(decoding: line, as: UTF8.self)
            }
            guard let sizeLine = try socket.readLine(timeout: timeout),
                let size = Int(sizeLine.split(separator: ";").first.map(String.init) ?? "", radix: 16)
            else { return nil }
            if size == 0 { return nil }
            body += try socket.read(count: size, timeout: timeout)
            _ = try socket.readLine(timeout: timeout)
        }
    }
}
