import ArgumentParser

import Foundation

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
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).map(URL.init(fileURLWithPath:))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        return me.deletingLastPathComponent().appendingPathComponent("bindery")
    }
}
