import ArgumentParser
import BinderyLoopback
import Foundation

/// `bindery-bench compare`: the floor (a plain C libmicrohttpd SSE server) and
/// Bindery side by side in one run, each a child process on a free loopback
/// port, measured by the same epoll load client. One table per scenario with
/// both columns and the ratio Bindery ÷ floor.
struct CompareBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Bindery against the plain C libmicrohttpd floor: ticking streams, idle streams, inputs; Bindery ÷ floor."
    )

    @Option(help: "Stream counts of the ticking scenario, comma-separated.")
    var streams = "2000,10000"

    @Option(help: "Milliseconds between two ticks in the ticking scenario.")
    var periodMs = 100

    @Option(help: "Streams held open in the idle scenario.")
    var idleStreams = 10_000

    @Option(help: "Seconds measured in the idle scenario (long enough to hold one of Bindery's 15 s heartbeats).")
    var idleSeconds = 20.0

    @Option(help: "Keep-alive connections posting inputs.")
    var connections = 64

    @Option(help: "Seconds measured in each run.")
    var seconds = 10.0

    @Option(help: "Seconds of warm-up before each measured window.")
    var warmupSeconds = 2.0

    @Option(help: "A previous bindery executable: the inputs scenario also runs against `PATH serve --port 0`.")
    var baselineBinary: String?

    @Option(
        help: """
            The Hummingbird peer (Benchmarks/HummingbirdPeer, built in release): the inputs scenario also runs \
            against `PATH --port 0`, the same routes and ViewModel on Hummingbird 2's defaults.
            """)
    var peerBinary: String?

    @Option(help: "libmicrohttpd worker threads of Bindery (default: serve's default).")
    var threads: UInt32?

    @Option(help: "Scenarios to run, comma-separated: streams, idle, inputs.")
    var scenarios = "streams,idle,inputs"

    @Option(help: "Seconds to wait at most, before each server run, for the machine to be quiet (under 10 % busy over 1 s).")
    var quietWait = 60.0

    @Flag(help: "A smoke run: 200 and 1,000 streams, 1,000 idle, 16 connections, 3 s windows.")
    var quick = false

    func validate() throws {
        guard periodMs >= 1, idleStreams >= 1, connections >= 1, seconds > 0, idleSeconds > 0, warmupSeconds >= 0 else {
            throw ValidationError("counts and --seconds must be positive")
        }
        guard !streamCounts.isEmpty, streamCounts.allSatisfy({ $0 >= 1 }) else {
            throw ValidationError("--streams must be a comma-separated list of positive counts")
        }
        if let baselineBinary, !FileManager.default.isExecutableFile(atPath: baselineBinary) {
            throw ValidationError("--baseline-binary \(baselineBinary) is not an executable")
        }
        if let peerBinary, !FileManager.default.isExecutableFile(atPath: peerBinary) {
            throw ValidationError("--peer-binary \(peerBinary) is not an executable")
        }
        let known: Set<String> = ["streams", "idle", "inputs"]
        guard Set(scenarioList).isSubset(of: known), !scenarioList.isEmpty else {
            throw ValidationError("--scenarios takes streams, idle, inputs")
        }
    }

    private var streamCounts: [Int] {
        quick ? [200, 1_000] : streams.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
    private var scenarioList: [String] { scenarios.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        ProcessStats.raiseFileLimit()
        BenchChild.stopAllOnSignals()
        let runStart = now()

        let executable = try currentExecutable()
        let folder = executable.deletingLastPathComponent()
        let floor = folder.appendingPathComponent("BenchFloor").path
        let load = folder.appendingPathComponent("BenchLoad").path
        let bindery = Bench.bindery.path
        for tool in [floor, load, bindery] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw ValidationError(
                "\(tool) is missing: build the package (swift build --package-path Benchmarks -c release builds bindery, BenchFloor and BenchLoad next to bindery-bench)"
            )
        }
        let logs = FileManager.default.temporaryDirectory
            .appendingPathComponent("bindery-compare-\(Self.timestamp(Date(), compact: true))-\(getpid())")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)

        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let pinning = Pinning(cores: cores)
        let settings = Settings(
            streamCounts: streamCounts,
            idleStreams: quick ? 1_000 : idleStreams,
            connections: quick ? 16 : connections,
            seconds: quick ? 3 : seconds,
            idleSeconds: quick ? 3 : idleSeconds,
            warmup: quick ? 1 : warmupSeconds,
            periodMs: periodMs,
            threads: threads,
            loops: threads ?? UInt32(pinning.serverCores ?? cores),
            quietWait: quietWait
        )

        print("bindery-bench compare\(quick ? " --quick" : "")")
        print("date:     \(Self.timestamp(Date(), compact: false))")
        print("machine:  \(machineDescription())")
        print(
            "files:    RLIMIT_NOFILE \(limit.rlim_cur) (hard \(limit.rlim_max)) in this process; the floor, the load client and bindery serve raise theirs to the hard limit"
        )
        print("pinning:  \(pinning.description)")
        print("bindery:  \(bindery)")
        print("floor:    \(floor)")
        print("load:     \(load)")
        if let baselineBinary { print("baseline: \(baselineBinary)") }
        if let peerBinary { print("peer:     \(peerBinary)") }
        print("logs:     \(logs.path) (each child's stderr)")
        print(
            "windows:  \(Self.format(settings.seconds)) s (idle: \(Self.format(settings.idleSeconds)) s) measured after \(Self.format(settings.warmup)) s of warm-up; CPU from /proc over the window"
        )

        print("quiet:    before each server run, wait up to \(Self.format(quietWait)) s for the machine to be under 10 % busy (see each table's notes)")

        let runner = Runner(
            settings: settings, bindery: bindery, benchTool: executable.path, floor: floor, load: load,
            baseline: baselineBinary, peer: peerBinary, pinning: pinning, logs: logs)
        if scenarioList.contains("streams") {
            for count in settings.streamCounts { runner.ticking(streams: count) }
        }
        if scenarioList.contains("idle") { runner.idle() }
        if scenarioList.contains("inputs") { runner.inputs() }
        print(String(format: "\ntotal: %.0f s", now() - runStart))
    }

    /// The running executable, whose folder also holds BenchFloor and BenchLoad.
    private func currentExecutable() throws -> URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    }

    /// Waits until the machine is under 10 % busy over one second, at most `limit` seconds.
    static func waitForQuiet(upTo limit: Double) -> String {
        let start = now()
        var busy: Double?
        repeat {
            let before = MachineCPU.read()
            Thread.sleep(forTimeInterval: 1)
            busy = MachineCPU.read().busyPercent(since: before)
            if let busy, busy < 10 {
                return String(format: "machine %.1f %% busy over 1 s before starting (waited %.0f s)", busy, now() - start - 1)
            }
        } while now() - start < limit
        return String(
            format: "machine still %.1f %% busy after waiting %.0f s: other processes share the cores (see the row of other processes' CPU)", busy ?? -1,
            now() - start)
    }

    static func timestamp(_ date: Date, compact: Bool) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = compact ? "yyyyMMdd-HHmmss" : "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(format: "%.0f", value) : String(format: "%g", value)
    }
}

/// Which cores the servers and the load client run on.
struct Pinning {
    let server: String?
    let load: String?
    let description: String
    /// How many cores the servers are pinned to, when they are.
    var serverCores: Int?

    init(cores: Int) {
        guard cores >= 4, FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset") else {
            server = nil
            load = nil
            description =
                cores >= 4
                ? "nothing pinned (taskset is missing)"
                : "nothing pinned (\(cores) cores < 4): servers, load client and this process share every core"
            return
        }
        let half = cores / 2
        serverCores = half
        server = "0-\(half - 1)"
        load = "\(half)-\(cores - 1)"
        description = "servers on cores \(server!), load client on cores \(load!) (taskset)"
    }
}

/// The sizes and durations in force.
struct Settings {
    let streamCounts: [Int]
    let idleStreams: Int
    let connections: Int
    let seconds: Double
    let idleSeconds: Double
    let warmup: Double
    let periodMs: Int
    let threads: UInt32?
    /// Bindery's libmicrohttpd loops in the ticking scenario (`--threads`, else
    /// one per core the servers run on), and the pooled floor's.
    let loops: UInt32
    let quietWait: Double
}

/// One server's run of one scenario: the load's figures and the server's.
struct ServerRun {
    var measurement = LoadMeasurement()
    /// How quiet the machine was before the server started.
    var quiet = ""
    /// When the server was launched, on `now()`'s clock.
    var started: Double?
    var residentBefore: Int?
    var fdsBefore: Int?
    var fdsAfter: Int?
    var stopped = ""
    var stderrLines = 0
    var command = ""
    var error: String?

    /// KiB of server RSS per stream: after connecting minus before, ÷ streams.
    func kibPerStream(_ streams: Int) -> Double? {
        guard let before = residentBefore, let after = measurement.residentAtWindowStart else { return nil }
        return Double(after - before) / Double(streams) / 1024
    }
}

/// Runs the scenarios and prints their tables.
final class Runner {
    let settings: Settings
    let bindery: String
    /// This executable, whose `target` command serves the examples plus the ticker.
    let benchTool: String
    let floor: String
    let load: String
    let baseline: String?
    /// The Hummingbird peer's executable.
    let peer: String?
    let pinning: Pinning
    let logs: URL
    private var runs = 0

    init(
        settings: Settings, bindery: String, benchTool: String, floor: String, load: String, baseline: String?, peer: String?, pinning: Pinning,
        logs: URL
    ) {
        self.benchTool = benchTool
        self.settings = settings
        self.bindery = bindery
        self.floor = floor
        self.load = load
        self.baseline = baseline
        self.peer = peer
        self.pinning = pinning
        self.logs = logs
    }

    /// Bindery's flags for `streams` streams on one session.
    private func binderyFlags(streams: Int, threads: UInt32? = nil) -> [String] {
        let room = streams + 256
        // Request lines off (`notice`): the floor logs nothing, and the previous binary had no request log.
        var flags = [
            "--port", "0", "--log-level", "notice", "--max-streams", "\(room)", "--max-streams-per-session", "\(room)",
            "--max-connections", "\(max(room, 4_096))", "--max-connections-per-client", "\(max(room, 4_096))",
        ]
        if let threads = threads ?? settings.threads { flags += ["--threads", "\(threads)"] }
        return flags
    }

    // MARK: Scenarios

    /// N streams of a ticker every `periodMs`: the floor as the issue set it (one
    /// loop), the floor with as many loops as Bindery when that is more than one
    /// (the same work on the same threads, so the totals compare too), Bindery.
    func ticking(streams: Int) {
        let s = settings
        let expected = Double(streams) * 1_000 / Double(s.periodMs)
        let floorArguments = ["--port", "0", "--period-ms", "\(s.periodMs)"]
        var named: [(String, ServerRun)] = [
            (
                "floor",
                measureStreams(
                    name: "floor-ticking-\(streams)", streams: streams, seconds: s.seconds,
                    executable: floor, arguments: floorArguments
                ) { _ in "/events" }
            )
        ]
        if s.loops > 1 {
            named.append(
                (
                    "floor ×\(s.loops)",
                    measureStreams(
                        name: "floor-\(s.loops)-ticking-\(streams)", streams: streams, seconds: s.seconds,
                        executable: floor, arguments: floorArguments + ["--threads", "\(s.loops)"]
                    ) { _ in "/events" }
                ))
        }
        named.append(
            (
                "Bindery",
                measureStreams(
                    name: "bindery-ticking-\(streams)", streams: streams, seconds: s.seconds, executable: benchTool,
                    arguments: ["target", "--period-ms", "\(s.periodMs)"]
                        + binderyFlags(streams: streams, threads: s.loops)
                ) { port in
                    "/api/bench-tick/\(try Self.createSession(port: port, viewModel: "bench-tick"))/events"
                }
            ))
        let runs = named.map(\.1)
        var rows = Self.streamRows(runs, streams: streams)
        rows.insert(Row("events expected per second", runs.map { _ in Cell(expected, 0) }, ratio: false), at: 9)
        let last = named.count - 1
        Table(
            title: "Streams: \(streams) × \(1_000 / s.periodMs) events/s (one shared ticker, data = CLOCK_MONOTONIC ns)",
            columns: named.map(\.0), ratios: named.dropLast().enumerated().map { ("Bindery ÷ \($1.0)", last, $0) }, rows: rows,
            notes: named.flatMap { Self.notes([$0.0: $0.1]) }
                + (s.loops > 1 ? ["floor ×\(s.loops): the same C server with libmicrohttpd's pool of \(s.loops) loops, as many as Bindery's"] : [])
                + [
                    "a stream that falls behind: the floor sends it only the newest tick (coalesced, so fewer events); "
                        + "Bindery writes every event in order (late rather than dropped, so more than expected can arrive in the window)"
                ]
        ).print()
    }

    /// N streams on which nothing happens.
    func idle() {
        let streams = settings.idleStreams
        let floorRun = measureStreams(
            name: "floor-idle", streams: streams, seconds: settings.idleSeconds, executable: floor,
            arguments: ["--port", "0", "--period-ms", "86400000"]
        ) { _ in "/events" }
        let binderyRun = measureStreams(
            name: "bindery-idle", streams: streams, seconds: settings.idleSeconds, executable: bindery,
            arguments: ["serve"] + binderyFlags(streams: streams)
        ) { port in
            "/api/simple/\(try Self.createSession(port: port, viewModel: "simple"))/events"
        }
        let runs = [floorRun, binderyRun]
        let rows = Self.streamRows(runs, streams: streams).filter {
            !$0.name.hasPrefix("latency") && $0.name != "events per second" && !$0.name.hasPrefix("server CPU per")
        }
        Table(
            title: "Idle: \(streams) streams, no events (floor: --period-ms 86400000; Bindery: one `simple` session, heartbeat 15 s)",
            columns: ["floor", "Bindery"], ratios: [("Bindery ÷ floor", 1, 0)], rows: rows,
            notes: Self.notes(["floor": floorRun, "Bindery": binderyRun])
                + [
                    "Bindery's 15 s heartbeats (a keep-alive comment down every stream) due in its window: \(Self.heartbeats(in: binderyRun))",
                    "the floor's streams get no first event, so its load client settles only at its 20 s cap",
                ]
        ).print()
    }

    /// C keep-alive connections posting `buttonTap` in a closed loop.
    func inputs() {
        let c = settings.connections
        var columns = ["floor", "Bindery"]
        var ratios = [("Bindery ÷ floor", 1, 0)]
        var runs = [
            measureInputs(name: "floor-inputs", executable: floor, arguments: ["--port", "0"]),
            measureInputs(
                name: "bindery-inputs", executable: bindery,
                arguments: [
                    "serve", "--port", "0", "--log-level", "notice",
                    // 64 connections each create a session at once
                    "--session-burst", "1000",
                ]
                    + (settings.threads.map { ["--threads", "\($0)"] } ?? [])),
        ]
        if let baseline {
            columns.append("baseline")
            ratios.append(("Bindery ÷ baseline", 1, runs.count))
            runs.append(measureInputs(name: "baseline-inputs", executable: baseline, arguments: ["serve", "--port", "0"]))
        }
        if let peer {
            columns.append("Hummingbird")
            ratios.append(("Bindery ÷ Hummingbird", 1, runs.count))
            runs.append(measureInputs(name: "hummingbird-inputs", executable: peer, arguments: ["--port", "0"]))
        }
        func figure(_ key: String, _ decimals: Int) -> [Cell] { runs.map { Cell($0.measurement.number(key), decimals) } }
        let rows = [
            Row("requests per second", figure("requestsPerSecond", 0)),
            Row("latency p50 (ms)", figure("p50Ms", 3)),
            Row("latency p99 (ms)", figure("p99Ms", 3)),
            Row("latency max (ms)", figure("maxMs", 3)),
            Row("server CPU (% of one core)", runs.map { Cell($0.measurement.cpuPercent, 1) }),
            Row("load client CPU (% of one core)", runs.map { Cell($0.measurement.loadCPUPercent, 1) }, ratio: false),
            Row("machine CPU busy (% of all cores)", runs.map { Cell($0.measurement.machineBusyPercent, 1) }, ratio: false),
            Row("other processes' CPU (% of one core)", runs.map { Cell($0.measurement.othersPercent, 1) }, ratio: false),
            Row(
                "server CPU per request (µs)",
                runs.map { run in
                    Cell(perUnit(run.measurement.cpuPercent, run.measurement.number("requestsPerSecond")), 1)
                }),
            Row("requests in the window", figure("requests", 0)),
            Row(
                "errors (non-2xx) / reconnects",
                runs.map { run in
                    Cell(
                        text: run.measurement.figures.isEmpty
                            ? "—"
                            : "\(Int(run.measurement.number("errors") ?? -1)) / \(Int(run.measurement.number("reconnects") ?? -1))")
                }, ratio: false),
            Row("server threads (max in window)", runs.map { Cell($0.measurement.maxThreads.map(Double.init), 0) }),
        ]
        var notes = Self.notes(["floor": runs[0], "Bindery": runs[1]])
        for (index, column) in columns.enumerated().dropFirst(2) { notes += Self.notes([column: runs[index]]) }
        Table(
            title: "Inputs: \(c) keep-alive connections, each POST /api/simple then POST /api/simple/<sid>/inputs/buttonTap in a closed loop",
            columns: columns, ratios: ratios, rows: rows, notes: notes
        ).print()
    }

    // MARK: Measuring

    /// Starts a server, opens `streams` streams on the path `path(port)` gives,
    /// and measures the window; the server is stopped whatever happens.
    private func measureStreams(
        name: String, streams: Int, seconds: Double, executable: String, arguments: [String],
        path: (UInt16) throws -> String
    ) -> ServerRun {
        var run = ServerRun()
        run.quiet = CompareBench.waitForQuiet(upTo: settings.quietWait)
        do {
            run.started = now()
            let server = try BenchChild(
                name: name, executable: executable, arguments: arguments,
                cores: pinning.server, logDirectory: logs)
            run.command = server.commandLine
            defer {
                run.stopped = server.stop()
                run.stderrLines = server.logLines
            }
            let port = try server.listeningPort(timeout: 15)
            let streamPath = try path(port)
            let stats = ProcessStats(pid: server.pid)
            Thread.sleep(forTimeInterval: 0.5)
            run.residentBefore = stats.residentBytes
            run.fdsBefore = stats.openFileDescriptors
            run.measurement = try runLoad(
                mode: "sse", arguments: ["--port", "\(port)", "--path", streamPath, "--streams", "\(streams)"],
                warmup: settings.warmup, seconds: seconds, load: load, cores: pinning.load,
                server: stats, logDirectory: logs, logName: "\(name)-load")
            // The load client has exited: every stream's socket is closed on its side.
            Thread.sleep(forTimeInterval: 2)
            run.fdsAfter = stats.openFileDescriptors
        } catch {
            run.error = "\(error)"
        }
        return run
    }

    /// Starts a server and drives inputs at it; the server is stopped whatever happens.
    private func measureInputs(name: String, executable: String, arguments: [String]) -> ServerRun {
        var run = ServerRun()
        run.quiet = CompareBench.waitForQuiet(upTo: settings.quietWait)
        do {
            let server = try BenchChild(
                name: name, executable: executable, arguments: arguments,
                cores: pinning.server, logDirectory: logs)
            run.command = server.commandLine
            defer {
                run.stopped = server.stop()
                run.stderrLines = server.logLines
            }
            let port = try server.listeningPort(timeout: 15)
            let stats = ProcessStats(pid: server.pid)
            Thread.sleep(forTimeInterval: 0.5)
            run.fdsBefore = stats.openFileDescriptors
            run.measurement = try runLoad(
                mode: "post",
                arguments: [
                    "--port", "\(port)", "--connections", "\(settings.connections)", "--create", "/api/simple",
                    "--input-path", "/api/simple/{sid}/inputs/buttonTap",
                ],
                warmup: settings.warmup, seconds: settings.seconds, load: load, cores: pinning.load,
                server: stats, logDirectory: logs, logName: "\(name)-load")
            Thread.sleep(forTimeInterval: 1)
            run.fdsAfter = stats.openFileDescriptors
        } catch {
            run.error = "\(error)"
        }
        return run
    }

    static func createSession(port: UInt16, viewModel: String) throws -> String {
        let response = try HTTPClient(port: port).post("/api/\(viewModel)")
        guard response.status == 201, let id = try response.json()["id"] as? String else {
            throw ValidationError("POST /api/\(viewModel) answered \(response.status): \(response.text)")
        }
        return id
    }

    /// Heartbeats due in `run`'s window: every 15 s from the server's start.
    static func heartbeats(in run: ServerRun) -> String {
        guard let started = run.started, let window = run.measurement.window else { return "—" }
        let due = (1...1_000).map { started + Double($0) * 15 }.filter { window.contains($0) }.count
        return "\(due) (window \(String(format: "%.1f–%.1f", window.lowerBound - started, window.upperBound - started)) s after its launch)"
    }

    // MARK: Rows

    /// The rows of a streams table.
    static func streamRows(_ runs: [ServerRun], streams: Int) -> [Row] {
        func figure(_ key: String, _ decimals: Int) -> [Cell] { runs.map { Cell($0.measurement.number(key), decimals) } }
        return [
            Row("server CPU (% of one core)", runs.map { Cell($0.measurement.cpuPercent, 1) }),
            Row("load client CPU (% of one core)", runs.map { Cell($0.measurement.loadCPUPercent, 1) }, ratio: false),
            Row("machine CPU busy (% of all cores)", runs.map { Cell($0.measurement.machineBusyPercent, 1) }, ratio: false),
            Row("other processes' CPU (% of one core)", runs.map { Cell($0.measurement.othersPercent, 1) }, ratio: false),
            Row("latency p50 (ms)", figure("p50Ms", 3)),
            Row("latency p99 (ms)", figure("p99Ms", 3)),
            Row("latency max (ms)", figure("maxMs", 3)),
            Row(
                "server CPU per event delivered (µs)",
                runs.map { run in
                    Cell(perUnit(run.measurement.cpuPercent, run.measurement.number("eventsPerSecond")), 2)
                }),
            Row("events delivered in the window", figure("events", 0)),
            Row("events per second", figure("eventsPerSecond", 0)),
            Row("server threads (max in window)", runs.map { Cell($0.measurement.maxThreads.map(Double.init), 0) }),
            Row("KiB per stream (RSS after connecting − before)", runs.map { Cell($0.kibPerStream(streams), 1) }),
            Row(
                "server RSS before / after connecting (MiB)",
                runs.map { run in
                    guard let before = run.residentBefore, let after = run.measurement.residentAtWindowStart else { return Cell(text: "—") }
                    return Cell(text: String(format: "%.1f / %.1f", Double(before) / 1_048_576, Double(after) / 1_048_576))
                }, ratio: false),
            Row(
                "connected / refused / unanswered / closed early",
                runs.map { run in
                    let m = run.measurement
                    guard !m.figures.isEmpty else { return Cell(text: "—") }
                    let refused = Int(m.number("refused") ?? 0)
                    let status = refused > 0 ? " (\(Int(m.number("firstRefusedStatus") ?? 0)))" : ""
                    return Cell(
                        text:
                            "\(Int(m.number("connected") ?? -1)) / \(refused)\(status) / \(Int(m.number("unanswered") ?? -1)) / \(Int(m.number("closedEarly") ?? -1))"
                    )
                }, ratio: false),
            Row("streams with events in the window", figure("streamsWithEvents", 0)),
            Row("seconds until every stream had an event", figure("firstEventSeconds", 3)),
            Row(
                "server fds before / 2 s after the client left",
                runs.map { run in
                    Cell(text: "\(run.fdsBefore.map(String.init) ?? "—") / \(run.fdsAfter.map(String.init) ?? "—")")
                }, ratio: false),
        ]
    }

    /// How each server was started and stopped, and anything that went wrong.
    static func notes(_ runs: KeyValuePairs<String, ServerRun>) -> [String] {
        runs.flatMap { name, run -> [String] in
            var lines = [
                "\(name): \(run.command)", "\(name): before: \(run.quiet)",
                "\(name): stop: \(run.stopped); stderr: \(run.stderrLines) lines; load client: \(run.measurement.ending)",
            ]
            if let error = run.error { lines.append("\(name): ERROR: \(error)") }
            if let seconds = run.measurement.windowSeconds { lines.append(String(format: "\(name): CPU window sampled over %.2f s", seconds)) }
            return lines
        }
    }
}

/// Microseconds of server CPU per unit of work, from CPU % of one core and units per second.
func perUnit(_ cpuPercent: Double?, _ perSecond: Double?) -> Double? {
    guard let cpuPercent, let perSecond, perSecond > 0 else { return nil }
    return cpuPercent / 100 / perSecond * 1e6
}

/// One value of a table.
struct Cell {
    var text: String
    var number: Double?

    init(text: String) { self.text = text }

    /// `value` with `decimals` decimals; "—" when missing or negative (the load
    /// client's "none").
    init(_ value: Double?, _ decimals: Int) {
        if let value, value >= 0, value.isFinite {
            number = value
            text = String(format: "%.\(decimals)f", value)
        } else {
            text = "—"
        }
    }
}

/// One row: a name, one cell per column, and whether ratios make sense.
struct Row {
    let name: String
    let cells: [Cell]
    let ratio: Bool

    init(_ name: String, _ cells: [Cell], ratio: Bool = true) {
        self.name = name
        self.cells = cells
        self.ratio = ratio
    }
}

/// A table with one column per server and ratio columns.
struct Table {
    let title: String
    let columns: [String]
    let ratios: [(String, Int, Int)]
    let rows: [Row]
    let notes: [String]

    func print() {
        var header = [""] + columns + ratios.map(\.0)
        var lines = [header]
        for row in rows {
            var line = [row.name] + row.cells.map(\.text)
            for (_, numerator, denominator) in ratios {
                guard row.ratio, numerator < row.cells.count, denominator < row.cells.count,
                    let top = row.cells[numerator].number, let bottom = row.cells[denominator].number, bottom > 0
                else {
                    line.append("")
                    continue
                }
                line.append(String(format: "%.2f×", top / bottom))
            }
            lines.append(line)
        }
        header = lines[0]
        let widths = header.indices.map { column in lines.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        Swift.print("\n\(title)")
        for line in lines {
            var text = "  " + line[0].padding(toLength: widths[0], withPad: " ", startingAt: 0)
            for column in 1..<line.count {
                text += "  " + String(repeating: " ", count: widths[column] - line[column].count) + line[column]
            }
            Swift.print(text)
        }
        for note in notes { Swift.print("  · \(note)") }
    }
}
