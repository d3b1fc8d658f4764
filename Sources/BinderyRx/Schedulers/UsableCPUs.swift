import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How many CPUs this process may use: the host's, narrowed by its CPU affinity mask
/// (`taskset`, a container's cpuset) and its cgroup v2 quota (`cpu.max`, a container's
/// `--cpus`), which `ProcessInfo.activeProcessorCount` does not see. Thread pools are
/// sized from it, so that a container limited to 2 CPUs on a 16-core host starts the
/// threads 2 CPUs can use.
public enum UsableCPUs {
    /// The CPUs this process may use, measured once.
    public static let count: Int = measure()

    /// The host's processors, the affinity mask's and the quota's: the fewest, at least 1.
    static func measure() -> Int {
        var count = ProcessInfo.processInfo.activeProcessorCount
        #if os(Linux)
            if let affinity = affinityCount() { count = min(count, affinity) }
            if let quota = cgroupQuota() { count = min(count, quota) }
        #endif
        return max(1, count)
    }

    #if os(Linux)
        /// The CPUs in this process's affinity mask (`Cpus_allowed_list` of `/proc/self/status`;
        /// glibc's `sched_getaffinity` is not in Swift's Glibc module).
        static func affinityCount() -> Int? {
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
            for line in status.split(separator: "\n") where line.hasPrefix("Cpus_allowed_list:") {
                return cpuCount(list: String(line.dropFirst("Cpus_allowed_list:".count)))
            }
            return nil
        }

        /// The tightest `cpu.max` quota of this process's cgroup and its ancestors, in CPUs.
        static func cgroupQuota() -> Int? {
            guard let own = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8), var directory = cgroupDirectory(own) else {
                return nil
            }
            var tightest: Int?
            while true {
                if let text = try? String(contentsOfFile: "/sys/fs/cgroup\(directory)/cpu.max", encoding: .utf8), let cpus = quota(cpuMax: text) {
                    tightest = min(tightest ?? cpus, cpus)
                }
                guard directory != "/", let slash = directory.lastIndex(of: "/") else { break }
                directory = slash == directory.startIndex ? "/" : String(directory[..<slash])
            }
            return tightest
        }
    #endif

    /// CPUs from a cgroup v2 `cpu.max` (`"<quota> <period>"`, or `"max <period>"`
    /// for none): the quota over the period, rounded up.
    static func quota(cpuMax text: String) -> Int? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let quota = Int(fields[0]), let period = Int(fields[1]), quota > 0, period > 0 else { return nil }
        return (quota + period - 1) / period
    }

    /// The CPUs of a CPU list (`"0-3,8,10-11"`: ranges and single CPUs).
    static func cpuCount(list: String) -> Int? {
        var count = 0
        for part in list.split(separator: ",") {
            let bounds = part.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "-")
            guard let low = bounds.first.flatMap({ Int($0) }), let high = (bounds.count == 2 ? Int(bounds[1]) : low), high >= low else {
                return nil
            }
            count += high - low + 1
        }
        return count > 0 ? count : nil
    }

    /// The cgroup v2 directory of a `/proc/self/cgroup` (its `0::/path` line).
    static func cgroupDirectory(_ text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("0::") {
            let path = String(line.dropFirst(3))
            return path.isEmpty ? "/" : path
        }
        return nil
    }
}
