import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `<app> probe` (every `BinderyApp`, and `bindery probe`): GET `--path`
/// (default `/healthz`) from the server on 127.0.0.1 at the port the app
/// would serve on (`--port`, `BINDERY_PORT`, `PORT`); 0 if it answers 200, 1
/// otherwise. For a container's HEALTHCHECK, where there is no curl: one
/// request on one socket, with a deadline.
public enum Probe {
    public static func run(_ arguments: [String], command: String = "bindery probe") -> Int32 {
        var arguments = arguments
        var path = "/healthz"
        if let index = arguments.firstIndex(of: "--path"), index + 1 < arguments.count {
            path = arguments[index + 1]
            arguments.removeSubrange(index...(index + 1))
        }
        do {
            let configuration = try ServeOptions.configuration(arguments: arguments, environment: ProcessInfo.processInfo.environment)
            let status = try status(of: path, port: configuration.port, timeoutSeconds: 3)
            print("\(path): \(status)")
            return status == 200 ? 0 : 1
        } catch {
            FileHandle.standardError.write(Data("\(command): \(error)\n".utf8))
            return 1
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The status of `GET path` from 127.0.0.1:`port`.
    static func status(of path: String, port: UInt16, timeoutSeconds: Int) throws -> Int {
        let fd = Platform.quietSocket()
        guard fd >= 0 else { throw Failure(description: "no socket") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "nothing listens on 127.0.0.1:\(port)") }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard send(fd, request, request.count, Platform.sendWithoutSignal) == request.count else { throw Failure(description: "the request was not sent") }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while !received.contains(UInt8(ascii: "\n")) {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        // "HTTP/1.1 200 OK"
        let line = String(decoding: received.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw Failure(description: "no HTTP answer from 127.0.0.1:\(port) (got '\(line)')")
        }
        return status
    }
}
