import BinderyLoopback
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A `bindery serve` (or any server printing `… http://127.0.0.1:<port>/` as
/// its first line) running as a child process on a free loopback port.
///
/// Threading: use from one thread.
final class ServerProcess {
    private let process = Process()
    private let errors = Pipe()
    /// Standard error as read so far: read all the time, so a server that logs a
    /// lot never blocks on a full pipe.
    private let errorText = ErrorText()
    private final class ErrorText: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        private let finished = DispatchSemaphore(value: 0)
        func append(_ more: Data) { lock.withLock { data.append(more) } }
        func finish() { finished.signal() }
        func text(waitingUpTo timeout: TimeInterval) -> String {
            _ = finished.wait(timeout: .now() + timeout)
            finished.signal()
            return lock.withLock { String(decoding: data, as: UTF8.self) }
        }
    }
    /// The port it listens on.
    let port: UInt16
    /// Its process id.
    var pid: Int32 { process.processIdentifier }

    /// Starts `executable` with `arguments` and waits for its first line.
    init(_ executable: URL, arguments: [String], environment: [String: String]? = nil) throws {
        let output = Pipe()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let reader = errors.fileHandleForReading, sink = errorText
        Thread {
            while case let data = reader.availableData, !data.isEmpty { sink.append(data) }
            sink.finish()
        }.start()
        var line = Data()
        while !line.contains(0x0A) {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { throw HTTPClientError.malformed("\(executable.lastPathComponent) exited before it listened") }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let portText = text.split(separator: ":").last?.split(separator: "/").first, let port = UInt16(portText) else {
            throw HTTPClientError.malformed("unexpected first line: \(text)")
        }
        self.port = port
    }

    deinit {
        if process.isRunning { kill(pid, SIGKILL) }
    }

    /// The `bindery` executable built with the tests: `BINDERY_BINARY` if set
    /// (a sanitized build, say), else the one beside the test bundle.
    static var binderyExecutable: URL {
        if let path = ProcessInfo.processInfo.environment["BINDERY_BINARY"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bindery")
    }

    /// `bindery serve` on a free port with the app's database at `database`
    /// (its sessions kept there), the repository's pages, and `more` options.
    static func serve(database: String, logLevel: String = "warning", _ more: [String] = []) throws -> ServerProcess {
        try ServerProcess(
            binderyExecutable,
            arguments: [
                "serve", "--port", "0", "--database", database, "--log-level", logLevel,
                "--public-directory", TestServer.publicDirectory.path,
            ] + more)
    }

    /// The titles of todo list `list`, in order, as a new session on this server shows them.
    func todoTitles(_ list: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let created = try HTTPClient(port: port).post("/api/todos", json: #"{"list": "\#(list)"}"#)
        XCTAssertEqual(created.status, 201, created.text, file: file, line: line)
        let outputs = try XCTUnwrap(created.json()["outputs"] as? [String: Any], file: file, line: line)
        return (outputs["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) { kill(pid, signal) }

    /// Waits at most `timeout` for the process to exit; its exit status, or nil if it still runs.
    func waitForExit(timeout: TimeInterval) -> Int32? {
        guard eventually(within: .milliseconds(Int(timeout * 1000)), every: .milliseconds(10), { !process.isRunning }) else { return nil }
        return process.terminationStatus
    }

    /// What it wrote to stderr: all of it once it has exited, else what came so far.
    var standardError: String {
        errorText.text(waitingUpTo: process.isRunning ? 0 : 2)
    }
}
