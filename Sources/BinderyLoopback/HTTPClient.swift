import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 client over a real loopback socket, so tests see exactly
/// what goes on the wire (status line, headers, chunked SSE bodies).
/// A response as read off the wire.
public struct HTTPResponse {
    public let status: Int
    public let headers: [String: String]
    public let body: Data

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
    public var text: String { String(decoding: body, as: UTF8.self) }
    public func json() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: body) as? [String: Any] ?? [:]
    }
}

/// Why a request failed on the client side.
public enum HTTPClientError: Error {
    case connect, timeout, closed
    case malformed(String)
}

/// One TCP connection to 127.0.0.1.
public final class Socket {
    public let fd: Int32
    private var buffer = Data()

    /// Connects to 127.0.0.1:`port`, from loopback address `source` if given
    /// (`127.0.0.2`: another client, as per-client limits count them), with a
    /// receive buffer of `receiveBuffer` bytes if given (a client with a small window).
    public init(port: UInt16, from source: String? = nil, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(fd)
                throw HTTPClientError.connect
            }
        }
        guard Self.connect(fd, toLoopbackPort: port) == 0 else {
            close(fd)
            throw HTTPClientError.connect
        }
    }

    /// `connect(2)`s socket `fd` to 127.0.0.1:`port`; its result (a non-blocking
    /// socket answers -1 with `EINPROGRESS` while it connects).
    public static func connect(_ fd: Int32, toLoopbackPort port: UInt16) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    deinit { close(fd) }

    public func write(_ data: Data) {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return }
                offset += sent
            }
        }
    }

    /// Reads more bytes into the buffer; false on EOF. Waits at most `timeout`.
    private func fill(timeout: TimeInterval) throws -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(timeout * 1000))
        if ready == 0 { throw HTTPClientError.timeout }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &chunk, chunk.count, 0)
        if count <= 0 { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    /// The next line (without CRLF/LF), or nil at EOF.
    public func readLine(timeout: TimeInterval = 5) throws -> String? {
        while true {
            if let index = buffer.firstIndex(of: 0x0A) {
                var line = buffer[buffer.startIndex..<index]
                if line.last == 0x0D { line = line.dropLast() }
                buffer.removeSubrange(buffer.startIndex...index)
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill(timeout: timeout) else { return nil }
        }
    }

    public func read(count: Int, timeout: TimeInterval = 5) throws -> Data {
        while buffer.count < count {
            guard try fill(timeout: timeout) else { throw HTTPClientError.closed }
        }
        let result = buffer.prefix(count)
        buffer.removeFirst(count)
        return Data(result)
    }

    public func readToEnd(timeout: TimeInterval = 5) throws -> Data {
        while try fill(timeout: timeout) {}
        defer { buffer = Data() }
        return buffer
    }

    /// Whether the peer has closed the connection (within `timeout`).
    public func isClosedByPeer(timeout: TimeInterval = 5) -> Bool {
        do {
            while try fill(timeout: timeout) {}
            return true
        } catch {
            return false
        }
    }
}

/// Sends requests to a server on 127.0.0.1:`port`.
public struct HTTPClient: Sendable {
    /// The server's port on 127.0.0.1.
    public let port: UInt16
    /// The loopback address requests come from (nil: the system's choice, 127.0.0.1).
    public let source: String?

    /// A client of 127.0.0.1:`port`, from loopback address `source` if given.
    public init(port: UInt16, from source: String? = nil) {
        self.port = port
        self.source = source
    }

    public func request(_ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil) throws -> HTTPResponse {
        let socket = try Socket(port: port, from: source)
        try send(method, path, headers: headers.merging(["Connection": "close"]) { a, _ in a }, body: body, on: socket)
        return try readResponse(socket)
    }

    /// Sends `text` as it is (a request a client library would correct) and reads the response.
    public func raw(_ text: String) throws -> HTTPResponse {
        let socket = try Socket(port: port, from: source)
        socket.write(Data(text.utf8))
        return try readResponse(socket)
    }

    /// Reads one response from `socket`: its head, and its body by length, chunks or to the end.
    public func readResponse(_ socket: Socket) throws -> HTTPResponse {
        let (status, responseHeaders) = try readHead(socket)
        let data: Data
        if let length = responseHeaders["content-length"].flatMap(Int.init) {
            data = try socket.read(count: length)
        } else if responseHeaders["transfer-encoding"]?.lowercased() == "chunked" {
            data = try readChunked(socket)
        } else {
            data = try socket.readToEnd()
        }
        return HTTPResponse(status: status, headers: responseHeaders, body: data)
    }

    public func get(_ path: String, headers: [String: String] = [:]) throws -> HTTPResponse {
        try request("GET", path, headers: headers)
    }

    public func post(_ path: String, json: String? = nil, headers: [String: String] = [:]) throws -> HTTPResponse {
        var all = headers
        if json != nil, all["Content-Type"] == nil { all["Content-Type"] = "application/json" }
        return try request("POST", path, headers: all, body: json.map { Data($0.utf8) } ?? Data())
    }

    public func send(_ method: String, _ path: String, headers: [String: String], body: Data?, on socket: Socket) throws {
        var head = "\(method) \(path) HTTP/1.1\r\n"
        // A test may name its own Host (a foreign one, say).
        if !headers.keys.contains(where: { $0.lowercased() == "host" }) { head += "Host: 127.0.0.1:\(port)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        socket.write(Data(head.utf8) + (body ?? Data()))
    }

    public func readHead(_ socket: Socket) throws -> (Int, [String: String]) {
        guard let statusLine = try socket.readLine() else { throw HTTPClientError.closed }
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw HTTPClientError.malformed(statusLine) }
        var headers: [String: String] = [:]
        while let line = try socket.readLine(), !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, headers)
    }

    private func readChunked(_ socket: Socket) throws -> Data {
        var data = Data()
        while let sizeLine = try socket.readLine(), let size = Int(sizeLine.split(separator: ";")[0], radix: 16) {
            if size == 0 {
                _ = try socket.readLine()
                break
            }
            data += try socket.read(count: size)
            _ = try socket.readLine()
        }
        return data
    }
}
