import Foundation

/// Latency samples and their percentiles.
struct Samples {
    private(set) var values: [Double] = []

    mutating func add(_ seconds: Double) { values.append(seconds) }

    /// The `p`-th percentile (0…100) in milliseconds.
    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
        return sorted[rank] * 1_000
    }

    /// `p50 / p90 / p99` in milliseconds.
    var summary: String {
        String(format: "%.3f / %.3f / %.3f ms", percentile(50), percentile(90), percentile(99))
    }
}

/// Seconds since an arbitrary start, monotonic.
func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The machine, for the figures' provenance.
func machineDescription() -> String {
    let cpu =
        (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
        .split(separator: "\n").first { $0.hasPrefix("model name") }?
        .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
    let memory = ProcessInfo.processInfo.physicalMemory / 1_073_741_824
    return "\(ProcessInfo.processInfo.activeProcessorCount) × \(cpu), \(memory) GiB, \(ProcessInfo.processInfo.operatingSystemVersionString)"
}

/// Prints rows as an aligned two-column table.
func printTable(_ title: String, _ rows: [(String, String)]) {
    print("\n\(title)")
    let width = rows.map(\.0.count).max() ?? 0
    for (name, value) in rows {
        print("  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value)
    }
}
