import BinderyPostgres
import Foundation

/// The PostgreSQL the tests use: the one script/test started
/// (`BINDERY_TEST_POSTGRES`, its URL), or a private one this process starts
/// with script/postgres and stops as it exits. Each test gets a database of
/// its own (`freshDatabase()`), so tables never carry over.
public enum TestPostgres {
    /// The server's URL (its `bindery` database).
    public static let url: String = {
        if let url = ProcessInfo.processInfo.environment["BINDERY_TEST_POSTGRES"] { return url }
        // This file is Sources/BinderyLoopback/TestPostgres.swift in the repository.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.appendingPathComponent(".build/test-postgres-\(getpid())").path
        let url = script(root, "start", directory)
        directoryToStop = directory
        rootForStop = root.path
        atexit {
            if let directory = TestPostgres.directoryToStop, let root = TestPostgres.rootForStop {
                _ = TestPostgres.script(URL(fileURLWithPath: root), "stop", directory)
                try? FileManager.default.removeItem(atPath: directory)
            }
        }
        return url
    }()

    nonisolated(unsafe) private static var directoryToStop: String?
    nonisolated(unsafe) private static var rootForStop: String?

    /// A new, empty database on the server; its URL.
    public static func freshDatabase() throws -> String {
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        let admin = try PostgresConnection(url: url)
        try admin.execute("CREATE DATABASE \(name)")
        return url[..<url.lastIndex(of: "/")!] + "/\(name)"
    }

    /// Runs script/postgres (with popen: Foundation's `Process.waitUntilExit` can hang inside a `static let`'s once).
    private static func script(_ root: URL, _ command: String, _ directory: String) -> String {
        let line = "'\(root.path)/script/postgres' \(command) '\(directory)'"
        guard let pipe = popen(line, "r") else { fatalError("script/postgres: cannot start") }
        var output = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), pipe) != nil {
            output += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        let status = pclose(pipe)
        guard status == 0 else { fatalError("\(line) failed (\(status))") }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
