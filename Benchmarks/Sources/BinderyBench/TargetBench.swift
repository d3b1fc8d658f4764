import ArgumentParser
import BinderyServer
import ExampleApp

/// `bindery-bench target`: what `bindery serve` serves, plus the shared ticker
/// `bench-tick`, so the load client measures Bindery exactly as it measures the floor.
struct TargetBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "target",
        abstract: "Serve the examples plus the shared ViewModel bench-tick (for bench compare).",
        shouldDisplay: false
    )

    @Argument(parsing: .allUnrecognized, help: "Options of `bindery serve`.")
    var serveArguments: [String] = []

    @Option(help: "Milliseconds between two ticks of bench-tick.")
    var periodMs = 100

    func validate() throws {
        guard periodMs >= 1 else { throw ValidationError("--period-ms must be at least 1") }
    }

    func run() throws {
        ExampleApp.serve(serveArguments, command: "bindery-bench target") { application in
            BenchTickViewModel.register(in: application, periodMilliseconds: periodMs)
        }
    }
}
