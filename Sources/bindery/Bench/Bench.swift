import ArgumentParser

/// `bindery bench`: measurements printed as tables; never a timed test.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the benchmarks and print their figures.",
        subcommands: [ServerBench.self, RxBench.self, SoakBench.self, CompareBench.self, TargetBench.self, TodoBench.self]
    )
}
