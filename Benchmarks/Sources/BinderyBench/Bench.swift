import ArgumentParser
import Foundation

/// What the benchmarks print goes out line by line as it is printed (not in
/// C's buffer until the end), so that a pipe or a log sees the tables as they come.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    FileHandle.standardOutput.write(Data((items.map { "\($0)" }.joined(separator: separator) + terminator).utf8))
}

/// `bindery-bench`: measurements printed as tables; never a timed test. It
/// runs the `bindery` executable next to it (and, for `compare`, the C floor
/// and load client), so build the whole package first.
@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bindery-bench",
        abstract: "Run the benchmarks and print their figures.",
        subcommands: [ServerBench.self, RxBench.self, SoakBench.self, CompareBench.self, TargetBench.self, TodoBench.self]
    )

    /// The `bindery` executable next to this one.
    static var bindery: URL {
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).map(URL.init(fileURLWithPath:))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        return me.deletingLastPathComponent().appendingPathComponent("bindery")
    }
}
