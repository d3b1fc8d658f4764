import CMallocStats
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A process's resources as Linux reports them in `/proc`: memory, CPU time,
/// threads and open file descriptors.
public struct ProcessStats {
    /// The process watched.
    public let pid: Int32

    /// The process with id `pid`.
    public init(pid: Int32) { self.pid = pid }

    /// This process.
    public static var current: ProcessStats { ProcessStats(pid: getpid()) }

    /// Resident set size in bytes.
    public var residentBytes: Int { statusField("VmRSS:").map { $0 * 1024 } ?? 0 }

    /// Bytes this process has allocated and not freed, however fragmented its
    /// heap: a leak grows it, an allocator holding on to freed pages does not.
    public static var heapBytesInUse: Int { Int(bindery_heap_bytes_in_use()) }

    /// The number of threads.
    public var threads: Int { statusField("Threads:") ?? 0 }

    /// The number of open file descriptors.
    public var openFileDescriptors: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }

    /// User plus system CPU seconds consumed so far.
    public var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command name: state is field 3, utime 14, stime 15 (1-based in proc(5)).
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (Double(fields[11]) ?? 0) / ticks + (Double(fields[12]) ?? 0) / ticks
    }

    private func statusField(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) })
        else { return nil }
        return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
    }

    /// Raises this process's soft limit of open files to the hard limit (many streams need many sockets).
    public static func raiseFileLimit() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
