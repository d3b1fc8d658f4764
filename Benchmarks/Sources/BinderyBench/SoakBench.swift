import ArgumentParser
import BinderyLoopback
import Foundation

/// `bindery-bench soak`: does the server give back what a session and its stream took?
struct SoakBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Create, stream, drive and dispose sessions in a loop; report the server's memory growth per round."
    )

    @Option(help: "Rounds before the first measurement (allocator warm-up).")
    var warmup = 1_000

    @Option(help: "Measured rounds.")
    var rounds = 10_000

    @Option(help: "Stop after this many seconds even if rounds remain.")
    var maxSeconds = 300.0

    func run() throws {
        // One client creating sessions in a loop is what the rate limit stops: not what this measures.
        let child = try ChildServer(extraArguments: ["--session-rate", "1000000", "--session-burst", "1000000"])
        defer { child.stop() }
        let client = HTTPClient(port: child.port)
        let stats = ProcessStats(pid: child.pid)
        print("bindery-bench soak — \(warmup) warm-up rounds, then \(rounds): create, stream, input, close, delete")
        print("machine: \(machineDescription())")

        let deadline = now() + maxSeconds
        func round() throws {
            let created = try client.post("/api/simple")
            guard created.status == 201, let id = try created.json()["id"] as? String else {
                throw ValidationError("create failed: \(created.text)")
            }
            let stream = try SSEClient(port: child.port, path: "/api/simple/\(id)/events")
            _ = try stream.next(2)
            _ = try client.post("/api/simple/\(id)/inputs/buttonTap")
            _ = try stream.next(2)
            let deleted = try client.request("DELETE", "/api/simple/\(id)")
            guard deleted.status == 204 else { throw ValidationError("delete failed: \(deleted.status)") }
            _ = try stream.next()
        }
        for _ in 0..<warmup where now() < deadline { try round() }
        let before = stats.residentBytes
        var done = 0
        let start = now()
        while done < rounds, now() < deadline {
            try round()
            done += 1
        }
        let after = stats.residentBytes
        printTable(
            "After \(done) rounds (\(String(format: "%.1f", now() - start)) s)",
            [
                ("server RSS before / after", "\(before / 1024) / \(after / 1024) KiB"),
                ("growth per round", String(format: "%.1f bytes", Double(after - before) / Double(max(done, 1)))),
            ])
    }
}
