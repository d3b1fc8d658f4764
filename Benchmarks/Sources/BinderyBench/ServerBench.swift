import ArgumentParser
import BinderyLoopback
import Foundation

/// `bindery-bench server`: the real server in a child process, N streams on loopback.
struct ServerBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Input latency, fan-out to many streams, memory per stream and idle CPU of `bindery serve`."
    )

    @Option(help: "Event streams to open on one session.")
    var streams = 1_000

    @Option(help: "Inputs to send in each latency phase.")
    var inputs = 500

    @Option(help: "Seconds to watch the server's CPU with every stream idle.")
    var idleSeconds = 10.0

    @Option(help: "Per-connection memory pool of the server, in bytes.")
    var connectionMemory = 16 * 1024

    @Option(help: "libmicrohttpd worker threads of the server (default: serve's default).")
    var threads: UInt32?

    func run() throws {
        ProcessStats.raiseFileLimit()
        let child = try ChildServer(
            extraArguments: [
                "--max-streams", "\(streams + 16)", "--max-connections-per-client", "\(streams + 16)",
                "--connection-memory", "\(connectionMemory)",
            ]
                + (threads.map { ["--threads", "\($0)"] } ?? []))
        defer { child.stop() }
        let client = HTTPClient(port: child.port)
        let stats = ProcessStats(pid: child.pid)
        print("bindery-bench server — \(streams) streams, \(inputs) inputs per phase, \(connectionMemory / 1024) KiB pool per connection")
        print("machine: \(machineDescription())")

        let session = try createSession(client)
        let quiet = try latency(of: inputs, client: client, session: session)

        let rssBefore = stats.residentBytes
        var clients: [SSEClient] = []
        clients.reserveCapacity(streams)
        for _ in 0..<streams {
            let stream = try SSEClient(port: child.port, path: "/api/simple/\(session)/events")
            guard stream.status == 200 else { throw ValidationError("stream refused with \(stream.status)") }
            _ = try stream.next(2)
            clients.append(stream)
        }
        let rssAfter = stats.residentBytes

        let cpuStart = stats.cpuSeconds
        Thread.sleep(forTimeInterval: idleSeconds)
        let idleCPU = (stats.cpuSeconds - cpuStart) / idleSeconds * 100

        var fanout = Samples()
        var busy = Samples()
        let fanoutStart = now()
        for _ in 0..<inputs {
            let start = now()
            _ = try client.post("/api/simple/\(session)/inputs/buttonTap")
            busy.add(now() - start)
            for stream in clients { _ = try stream.next(2) }
            fanout.add(now() - start)
        }
        let fanoutElapsed = now() - fanoutStart
        let deliveries = Double(inputs * streams * 2)

        printTable(
            "Input latency (POST → 200 with the snapshot), p50 / p90 / p99",
            [
                ("no stream open", quiet.summary),
                ("\(streams) streams open", busy.summary),
                ("ratio at p50 (\(streams) streams ÷ none)", String(format: "%.2f×", busy.percentile(50) / quiet.percentile(50))),
            ])
        printTable(
            "Fan-out: one input until every stream has both events",
            [
                ("latency p50 / p90 / p99", fanout.summary),
                ("deliveries per second", String(format: "%.0f", deliveries / fanoutElapsed)),
            ])
        printTable(
            "Cost of an open stream (server process only)",
            [
                ("memory per stream", String(format: "%.1f KiB", Double(rssAfter - rssBefore) / Double(streams) / 1024)),
                ("CPU with all \(streams) idle, over \(Int(idleSeconds)) s", String(format: "%.2f %% of one core", idleCPU)),
            ])
    }

    private func latency(of count: Int, client: HTTPClient, session: String) throws -> Samples {
        var samples = Samples()
        for _ in 0..<count {
            let start = now()
            let response = try client.post("/api/simple/\(session)/inputs/buttonTap")
            samples.add(now() - start)
            guard response.status == 200 else { throw ValidationError("input failed: \(response.text)") }
        }
        return samples
    }

    private func createSession(_ client: HTTPClient) throws -> String {
        let response = try client.post("/api/simple")
        guard response.status == 201, let id = try response.json()["id"] as? String else {
            throw ValidationError("could not create a session: \(response.text)")
        }
        return id
    }
}

/// `bindery serve` on a free loopback port, as a child process.
final class ChildServer {
    let process = Process()
    let port: UInt16
    var pid: Int32 { process.processIdentifier }

    init(extraArguments: [String]) throws {
        let output = Pipe()
        process.executableURL = Bench.bindery
        process.arguments = ["serve", "--port", "0", "--heartbeat", "15", "--log-level", "notice"] + extraArguments
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { throw ValidationError("bindery serve exited early") }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let portText = text.split(separator: ":").last?.split(separator: "/").first, let port = UInt16(portText) else {
            throw ValidationError("unexpected first line from bindery serve: \(text)")
        }
        self.port = port
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
