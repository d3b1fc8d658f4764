import BinderyLoopback
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Many event streams opened at once and read from one thread with `poll`:
/// the reconnect burst after a deploy, as a test can make it.
///
/// Every connection is opened without waiting (non-blocking `connect`), its
/// request written as soon as the socket is writable, and its response read
/// as it comes: status, chunked body, events counted by the WHATWG rules.
///
/// Threading: use from one thread.
final class StreamSwarm {
    /// One stream's state as read so far.
    struct Stream {
        /// The response status, once the head has arrived.
        fileprivate(set) var status: Int?
        /// Events dispatched so far (comments and `retry:` alone do not count).
        fileprivate(set) var events = 0
        /// The name of the last event.
        fileprivate(set) var lastEvent: String?
        /// The peer closed the connection.
        fileprivate(set) var isClosed = false
    }

    private final class Connection {
        /// Where the chunked body decoder is.
        enum Chunk { case size, sizeExtension, data, dataEnd, done }

        let fd: Int32
        var request: [UInt8]
        var written = 0
        var head: [UInt8] = []
        var inBody = false
        var chunk = Chunk.size
        var chunkSize = 0
        var chunkRemaining = 0
        var line: [UInt8] = []
        var hasField = false
        var eventName = "message"
        var state = Stream()

        init(fd: Int32, request: [UInt8]) {
            self.fd = fd
            self.request = request
        }
    }

    private var connections: [Connection] = []
    private var receiveBuffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// The streams, in the order they were opened.
    var streams: [Stream] { connections.map(\.state) }

    /// Opens `count` streams of `path` on 127.0.0.1:`port`, all at once.
    init(port: UInt16, path: String, count: Int, headers: [String: String] = [:]) throws {
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let request = Array(head.utf8)
        connections.reserveCapacity(count)
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else {
                closeAll()
                throw HTTPClientError.connect
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | Int32(O_NONBLOCK))
            let result = Socket.connect(fd, toLoopbackPort: port)
            guard result == 0 || errno == EINPROGRESS else {
                Glibc.close(fd)
                closeAll()
                throw HTTPClientError.connect
            }
            connections.append(Connection(fd: fd, request: request))
        }
    }

    deinit { closeAll() }

    /// Reads until `done` says so or `timeout` passes; returns whether `done` said so.
    /// Streams for which `reading` is false are left unread (their server sees a
    /// slow reader), which bounds the work when only the first events matter.
    @discardableResult
    func run(timeout: TimeInterval, reading: (Stream) -> Bool = { _ in true }, until done: (StreamSwarm) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var descriptors: [pollfd] = []
        var owners: [Connection] = []
        while !done(self) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            descriptors.removeAll(keepingCapacity: true)
            owners.removeAll(keepingCapacity: true)
            for connection in connections where !connection.state.isClosed && connection.fd >= 0 && reading(connection.state) {
                let wantsWrite = connection.written < connection.request.count
                descriptors.append(pollfd(fd: connection.fd, events: Int16(wantsWrite ? POLLOUT : POLLIN), revents: 0))
                owners.append(connection)
            }
            if descriptors.isEmpty { return done(self) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(min(left, 0.1) * 1000))
            guard ready > 0 else { continue }
            for (index, descriptor) in descriptors.enumerated() where descriptor.revents != 0 {
                service(owners[index], revents: descriptor.revents)
            }
        }
        return true
    }

    /// Closes stream `index` from the client's side.
    func close(_ index: Int) {
        let connection = connections[index]
        guard !connection.state.isClosed else { return }
        Glibc.close(connection.fd)
        connection.state.isClosed = true
    }

    /// Closes every stream from the client's side.
    func closeAll() {
        for index in connections.indices { close(index) }
    }

    private func service(_ connection: Connection, revents: Int16) {
        if connection.written < connection.request.count {
            let sent = connection.request[connection.written...].withUnsafeBytes {
                send(connection.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 { connection.written += sent } else if sent < 0, errno != EAGAIN { finish(connection) }
            return
        }
        // One read per readiness: a server that writes as fast as this reads
        // must not keep the loop on one connection past `run`'s deadline.
        let count = receiveBuffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            receiveBuffer.withUnsafeBufferPointer { feed(connection, UnsafeBufferPointer(rebasing: $0[0..<count])) }
        } else if count == 0 || errno != EAGAIN {
            finish(connection)
        }
    }

    private func finish(_ connection: Connection) {
        Glibc.close(connection.fd)
        connection.state.isClosed = true
    }

    /// Reads `bytes` one by one: the head, then the chunked body, then SSE lines.
    /// Linear in what arrives, with no allocation per byte, so a slow machine
    /// (a sanitizer, say) never makes the client fall behind for good.
    private func feed(_ connection: Connection, _ bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        while !connection.inBody, index < bytes.count {
            connection.head.append(bytes[index])
            index += 1
            let head = connection.head
            if head.count >= 4, head[head.count - 4] == 13, head[head.count - 3] == 10, head[head.count - 2] == 13, head[head.count - 1] == 10 {
                let statusLine = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self)
                connection.state.status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) }
                connection.inBody = true
            }
        }
        // A refusal's body is JSON, not a chunked event stream: its status says all.
        guard connection.state.status == 200 else { return }
        while index < bytes.count {
            let byte = bytes[index]
            switch connection.chunk {
            case .size, .sizeExtension:
                index += 1
                if byte == 10 {
                    connection.chunkRemaining = connection.chunkSize
                    connection.chunk = connection.chunkSize == 0 ? .done : .data
                    connection.chunkSize = 0
                } else if byte == UInt8(ascii: ";") {
                    connection.chunk = .sizeExtension
                } else if connection.chunk == .size, let digit = Self.hexDigit(byte) {
                    connection.chunkSize = connection.chunkSize * 16 + digit
                }
            case .data:
                let end = min(bytes.count, index + connection.chunkRemaining)
                for position in index..<end { sse(connection, bytes[position]) }
                connection.chunkRemaining -= end - index
                index = end
                if connection.chunkRemaining == 0 { connection.chunk = .dataEnd }
            case .dataEnd:
                index += 1
                if byte == 10 { connection.chunk = .size }
            case .done:
                index = bytes.count
            }
        }
    }

    /// One byte of the event stream (WHATWG rules: a blank line dispatches the event).
    private func sse(_ connection: Connection, _ byte: UInt8) {
        guard byte == 10 else {
            if byte != 13 { connection.line.append(byte) }
            return
        }
        let line = connection.line
        defer { connection.line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            if connection.hasField {
                connection.state.events += 1
                connection.state.lastEvent = connection.eventName
            }
            connection.hasField = false
            connection.eventName = "message"
        } else if line[0] != UInt8(ascii: ":") {
            if line.starts(with: Self.eventField) {
                connection.eventName = String(decoding: line.dropFirst(Self.eventField.count), as: UTF8.self).trimmingCharacters(in: .whitespaces)
                connection.hasField = true
            } else if line.starts(with: Self.idField) || line.starts(with: Self.dataField) {
                connection.hasField = true
            }
        }
    }

    private static let eventField = Array("event:".utf8)
    private static let idField = Array("id:".utf8)
    private static let dataField = Array("data:".utf8)

    private static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }
}
