import ArgumentParser
import BinderyLoopback
import Dispatch
import Foundation

/// A child process of a benchmark: a server or the load client, optionally
/// pinned to cores with `taskset`, its stderr kept in a log file.
///
/// Every child is registered while it runs, so that SIGINT or SIGTERM to the
/// benchmark stops them all (see `BenchChild.stopAllOnSignals`); `stop` ends
/// one with SIGTERM, then SIGKILL if it has not exited a few seconds later.
/// Its process is asked from the thread that follows its log too: `Process` may be.
final class BenchChild: @unchecked Sendable {
    let name: String
    let process = Process()
    let output = Pipe()
    let logURL: URL
    var pid: Int32 { process.processIdentifier }
    private var stopped = false

    init(name: String, executable: String, arguments: [String], cores: String?, logDirectory: URL) throws {
        self.name = name
        logURL = logDirectory.appendingPathComponent("\(name).stderr.log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        guard let log = FileHandle(forWritingAtPath: logURL.path) else { throw ValidationError("cannot write \(logURL.path)") }
        if let cores {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
            process.arguments = ["-c", cores, executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        process.standardOutput = output
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try Self.registry.withLock {
            try process.run()
            Self.running[ObjectIdentifier(self)] = process.processIdentifier
        }
        try? log.close()
    }

    deinit { _ = stop() }

    /// The command line, for the record.
    var commandLine: String {
        ([process.executableURL?.path ?? ""] + (process.arguments ?? [])).joined(separator: " ")
    }

    /// Waits for a line `... listening on http://127.0.0.1:PORT/` and returns PORT.
    func listeningPort(timeout: Double) throws -> UInt16 {
        let deadline = now() + timeout
        let fd = output.fileHandleForReading.fileDescriptor
        var line: [UInt8] = []
        while true {
            let left = deadline - now()
            guard left > 0 else { throw ValidationError("\(name) did not print its address within \(Int(timeout)) s") }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(left, 1) * 1000))
            if ready < 0, errno == EINTR { continue }
            if ready <= 0 { continue }
            var byte: UInt8 = 0
            let count = read(fd, &byte, 1)
            if count == 0 { throw ValidationError("\(name) exited before printing its address (see \(logURL.path))") }
            if count < 0 {
                if errno == EINTR { continue }
                throw ValidationError("\(name): reading its output failed")
            }
            if byte != 0x0A {
                line.append(byte)
                continue
            }
            let text = String(decoding: line, as: UTF8.self)
            line.removeAll()
            guard let range = text.range(of: "listening on http://") else { continue }
            let address = text[range.upperBound...]
            if let portText = address.split(separator: ":").last?.split(separator: "/").first, let port = UInt16(portText) {
                return port
            }
            throw ValidationError("\(name): unexpected address line: \(text)")
        }
    }

    /// Whether the process is still running.
    var isRunning: Bool { process.isRunning }

    /// Waits up to `timeout` seconds for the process to exit; true if it did.
    func waitForExit(timeout: Double) -> Bool {
        let deadline = now() + timeout
        while process.isRunning, now() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return !process.isRunning
    }

    /// SIGTERM, then SIGKILL if it is still running `grace` seconds later.
    /// Returns how it ended, for the record.
    @discardableResult
    func stop(grace: Double = 5) -> String {
        guard !stopped else { return "already stopped" }
        stopped = true
        defer { _ = Self.registry.withLock { Self.running.removeValue(forKey: ObjectIdentifier(self)) } }
        guard process.isRunning else { return "had exited (status \(process.terminationStatus))" }
        let start = now()
        kill(pid, SIGTERM)
        if waitForExit(timeout: grace) {
            return String(format: "SIGTERM → exited in %.2f s (status %d)", now() - start, process.terminationStatus)
        }
        kill(pid, SIGKILL)
        _ = waitForExit(timeout: 5)
        return String(format: "still running %.0f s after SIGTERM → SIGKILL", grace)
    }

    /// Lines its stderr log holds.
    var logLines: Int {
        guard let data = FileManager.default.contents(atPath: logURL.path) else { return 0 }
        return data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    // MARK: Every child, on a signal to the benchmark

    private static let registry = NSLock()
    nonisolated(unsafe) private static var running: [ObjectIdentifier: Int32] = [:]
    nonisolated(unsafe) private static var signalSources: [DispatchSourceSignal] = []

    /// On SIGINT or SIGTERM: SIGTERM every running child, SIGKILL those left
    /// after 3 s, and exit 130.
    static func stopAllOnSignals() {
        signalSources = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let pids = registry.withLock { Array(running.values) }
                FileHandle.standardError.write(Data("bench: signal \(number): stopping \(pids.count) children\n".utf8))
                pids.forEach { kill($0, SIGTERM) }
                let deadline = now() + 3
                while now() < deadline, pids.contains(where: { kill($0, 0) == 0 && !isZombie($0) }) {
                    Thread.sleep(forTimeInterval: 0.05)
                }
                pids.forEach { kill($0, SIGKILL) }
                exit(130)
            }
            source.resume()
            return source
        }
    }

    private static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        return stat[stat.index(after: close)...].dropFirst().first == "Z"
    }
}

/// What one run of the load client measured, and what the server did meanwhile.
struct LoadMeasurement {
    /// The load client's JSON answer.
    var figures: [String: Any] = [:]
    /// Server CPU over the measured window, in % of one core.
    var cpuPercent: Double?
    /// Server RSS when the window started (every stream connected), in bytes.
    var residentAtWindowStart: Int?
    /// Most server threads seen during the window.
    var maxThreads: Int?
    /// Seconds of the window as sampled.
    var windowSeconds: Double?
    /// When the window was sampled, on `now()`'s clock.
    var window: ClosedRange<Double>?
    /// The load client's CPU over the window, in % of one core.
    var loadCPUPercent: Double?
    /// The whole machine's busy CPU over the window, in % of all cores.
    var machineBusyPercent: Double?
    /// How the load client ended.
    var ending = "not run"

    /// CPU of everything but the server and the load client over the window
    /// (this benchmark, the kernel's own work, other processes), in % of one core.
    var othersPercent: Double? {
        guard let machineBusyPercent, let cpuPercent, let loadCPUPercent else { return nil }
        return max(0, machineBusyPercent * Double(ProcessInfo.processInfo.activeProcessorCount) - cpuPercent - loadCPUPercent)
    }

    func number(_ key: String) -> Double? {
        switch figures[key] {
        case let value as Double: return value
        case let value as Int: return Double(value)
        case let value as NSNumber: return value.doubleValue
        default: return nil
        }
    }
}

/// Runs the load client to its end while sampling `server` over the window it measures.
///
/// `sse`: the window is the one the client announces on stderr ("measuring a..b s",
/// seconds since its start); `post`: [W, W + S] after its start.
func runLoad(
    mode: String, arguments: [String], warmup: Double, seconds: Double, load: String, cores: String?,
    server: ProcessStats, logDirectory: URL, logName: String
) throws -> LoadMeasurement {
    final class Announced: @unchecked Sendable {
        let lock = NSLock()
        var window: (Double, Double)?
    }
    let announced = Announced()
    let launch = now()
    let child = try BenchChild(
        name: logName, executable: load,
        arguments: [mode] + arguments + ["--seconds", "\(seconds)", "--warmup-seconds", "\(warmup)"],
        cores: cores, logDirectory: logDirectory)
    defer { child.stop() }
    if mode == "post" {
        announced.window = (warmup, warmup + seconds)
    } else {
        // The client's stderr goes to its log; follow the log for the announcement.
        let logPath = child.logURL.path
        Thread {
            let deadline = now() + 25
            while now() < deadline, child.isRunning || announced.lock.withLock({ announced.window == nil }) {
                if let text = try? String(contentsOfFile: logPath, encoding: .utf8),
                    let line = text.split(separator: "\n").first(where: { $0.contains("measuring ") }),
                    let range = line.range(of: "measuring ")
                {
                    let bounds = line[range.upperBound...].replacingOccurrences(of: " s", with: "").components(separatedBy: "..")
                    if bounds.count == 2, let start = Double(bounds[0]), let end = Double(bounds[1]) {
                        announced.lock.withLock { announced.window = (start, end) }
                        return
                    }
                }
                if !child.isRunning { return }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }.start()
    }

    // The client ends by itself at the latest 20 s (settling) + W + S + 30 s after its start.
    let hardDeadline = launch + 20 + warmup + seconds + 40
    var measurement = LoadMeasurement()
    let client = ProcessStats(pid: child.pid)
    var cpuStart: Double?, loadStart = 0.0, machineStart = MachineCPU.read(), windowStart = 0.0, maxThreads = 0
    var loadLast: (Double, Double)?
    while child.isRunning, now() < hardDeadline {
        Thread.sleep(forTimeInterval: 0.02)
        guard let (start, end) = announced.lock.withLock({ announced.window }) else { continue }
        let time = now()
        if cpuStart == nil, time >= launch + start, time < launch + end {
            cpuStart = server.cpuSeconds
            loadStart = client.cpuSeconds
            machineStart = MachineCPU.read()
            windowStart = time
            measurement.residentAtWindowStart = server.residentBytes
        }
        if let began = cpuStart, measurement.cpuPercent == nil {
            maxThreads = max(maxThreads, server.threads)
            // The client exits right at the window's end: keep its last reading from inside the window.
            let clientCPU = client.cpuSeconds
            if clientCPU >= loadStart, time < launch + end { loadLast = (clientCPU, time) }
            if time >= launch + end {
                let elapsed = time - windowStart
                measurement.cpuPercent = (server.cpuSeconds - began) / elapsed * 100
                if let (seconds, at) = loadLast, at > windowStart {
                    measurement.loadCPUPercent = (seconds - loadStart) / (at - windowStart) * 100
                }
                measurement.machineBusyPercent = MachineCPU.read().busyPercent(since: machineStart)
                measurement.window = windowStart...time
                measurement.windowSeconds = elapsed
                measurement.maxThreads = maxThreads
            }
        }
    }
    if child.isRunning {
        measurement.ending = "load client still running at its deadline: " + child.stop(grace: 2)
    } else {
        measurement.ending = "exited with status \(child.process.terminationStatus)"
    }
    let data = child.output.fileHandleForReading.readDataToEndOfFile()
    if let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last,
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    {
        measurement.figures = object
    }
    return measurement
}

/// The machine's CPU time from the first line of /proc/stat, in ticks.
struct MachineCPU {
    var busy: Double = 0
    var total: Double = 0

    static func read() -> MachineCPU {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
        else { return MachineCPU() }
        // user nice system idle iowait irq softirq steal (guest time is already in user).
        let fields = line.split(separator: " ").dropFirst().prefix(8).map { Double($0) ?? 0 }
        guard fields.count == 8 else { return MachineCPU() }
        let total = fields.reduce(0, +)
        return MachineCPU(busy: total - fields[3] - fields[4], total: total)
    }

    /// Busy share of every core between `earlier` and this reading.
    func busyPercent(since earlier: MachineCPU) -> Double? {
        let elapsed = total - earlier.total
        return elapsed > 0 ? (busy - earlier.busy) / elapsed * 100 : nil
    }
}
