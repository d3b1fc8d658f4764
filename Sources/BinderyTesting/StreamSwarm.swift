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
public final class StreamSwarm {
    /// One stream's state as read so far.
    public struct Stream {
        /// The response status, once the head has arrived.
        public fileprivate(set) var status: Int?
        /// Events dispatched so far (comments and `retry:` alone do not count).
        public fileprivate(set) var events = 0
        /// The name of the last event.
        public fileprivate(set) var lastEvent: String?
        /// The peer closed the connection.
        public fileprivate(set) var isClosed = false
    }

    private final class Connection {
        let fd: Int32
        var request: [UInt8]
        var written = 0
        var buffer: [UInt8] = []
        var inBody = false
        var chunkRemaining = 0      // bytes left in the current chunk
        var chunkTrailer = false    // expecting the CRLF after a chunk
        var body: [UInt8] = []
        var hasField = false
        var eventName = "message"
        var state = Stream()

        init(fd: Int32, request: [UInt8]) {
            self.fd = fd
            self.request = request
        }
    }

    private var connections: [Connection] = []

    /// The streams, in the order they were opened.
    public var streams: [Stream] { connections.map(\.state) }

    /// Opens `count` streams of `path` on 127.0.0.1:`port`, all at once.
    public init(port: UInt16, path: String, count: Int, headers: [String: String] = [:]) throws {
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let request = Array(head.utf8)
        connections.reserveCapacity(count)
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { closeAll(); throw HTTPClientError.connect }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | Int32(O_NONBLOCK))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard result == 0 || errno == EINPROGRESS else { Glibc.close(fd); closeAll(); throw HTTPClientError.connect }
            connections.append(Connection(fd: fd, request: request))
        }
    }

    deinit { closeAll() }

    /// Reads until `done` says so or `timeout` passes; returns whether `done` said so.
    @discardableResult
    public func run(timeout: TimeInterval, until done: (StreamSwarm) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var descriptors: [pollfd] = []
        var owners: [Connection] = []
        while !done(self) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            descriptors.removeAll(keepingCapacity: true)
            owners.removeAll(keepingCapacity: true)
            for connection in connections where !connection.state.isClosed && connection.fd >= 0 {
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
    public func close(_ index: Int) {
        let connection = connections[index]
        guard !connection.state.isClosed else { return }
        Glibc.close(connection.fd)
        connection.state.isClosed = true
    }

    /// Closes every stream from the client's side.
    public func closeAll() {
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
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = recv(connection.fd, &chunk, chunk.count, 0)
            if count > 0 {
                connection.buffer.append(contentsOf: chunk[0..<count])
                parse(connection)
                continue
            }
            if count == 0 || errno != EAGAIN { finish(connection) }
            return
        }
    }

    private func finish(_ connection: Connection) {
        Glibc.close(connection.fd)
        connection.state.isClosed = true
    }

    private func parse(_ connection: Connection) {
        if !connection.inBody {
            guard let end = find([13, 10, 13, 10], in: connection.buffer) else { return }
            let head = String(decoding: connection.buffer[..<end], as: UTF8.self)
            let statusLine = head.split(separator: "\r\n").first ?? ""
            connection.state.status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) }
            connection.buffer.removeFirst(end + 4)
            connection.inBody = true
        }
        // De-chunk what has arrived into `body`.
        while !connection.buffer.isEmpty {
            if connection.chunkTrailer {
                guard connection.buffer.count >= 2 else { return }
                connection.buffer.removeFirst(2)
                connection.chunkTrailer = false
            } else if connection.chunkRemaining > 0 {
                let take = min(connection.chunkRemaining, connection.buffer.count)
                connection.body.append(contentsOf: connection.buffer[..<take])
                connection.buffer.removeFirst(take)
                connection.chunkRemaining -= take
                if connection.chunkRemaining == 0 { connection.chunkTrailer = true }
            } else {
                guard let lineEnd = find([13, 10], in: connection.buffer) else { return }
                let sizeText = String(decoding: connection.buffer[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
                connection.buffer.removeFirst(lineEnd + 2)
                guard let size = Int(sizeText, radix: 16), size > 0 else { return }
                connection.chunkRemaining = size
            }
        }
        dispatchEvents(connection)
    }

    private func dispatchEvents(_ connection: Connection) {
        var start = 0
        while let newline = connection.body[start...].firstIndex(of: 10) {
            let line = connection.body[start..<newline]
            start = newline + 1
            if line.isEmpty {
                if connection.hasField {
                    connection.state.events += 1
                    connection.state.lastEvent = connection.eventName
                }
                connection.hasField = false
                connection.eventName = "message"
            } else if line.first != UInt8(ascii: ":") {
                let text = String(decoding: line, as: UTF8.self)
                if text.hasPrefix("event:") {
                    connection.eventName = text.dropFirst(6).trimmingCharacters(in: .whitespaces)
                    connection.hasField = true
                } else if text.hasPrefix("id:") || text.hasPrefix("data:") {
                    connection.hasField = true
                }
            }
        }
        connection.body.removeFirst(start)
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if Array(haystack[index..<(index + needle.count)]) == needle { return index }
        }
        return nil
    }
}
