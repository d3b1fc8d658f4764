import ArgumentParser
import BinderyServer

/// The `bindery` executable: `bindery [serve] [options]` serves the examples;
/// `bindery bench …` measures. Serving parses its options with `ServeOptions`,
/// like every Bindery app; only the benchmarks use swift-argument-parser.
@main
enum Main {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "bench":
            BenchCommand.main(arguments)
        case "help", "-h", "--help":
            print("""
            Serve RxSwift-style ViewModels over HTTP and server-sent events.

            USAGE: bindery [serve] [options]     the examples (options below)
                   bindery bench <benchmark>     measurements (bindery bench --help)

            """)
            print(ServeOptions.help(command: "bindery serve"))
        default:
            if arguments.first == "serve" { arguments.removeFirst() }
            serveExamples(arguments)
        }
    }
}

/// `bindery bench …`, parsed by swift-argument-parser.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bindery",
        abstract: "Serve RxSwift-style ViewModels over HTTP and server-sent events.",
        subcommands: [Bench.self]
    )
}
