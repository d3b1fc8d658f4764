import ArgumentParser
import BinderyServer
import BinderyTesting
import Foundation

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
        case "probe":
            exit(probe(Array(arguments.dropFirst())))
        case "help", "-h", "--help":
            print("""
            Serve RxSwift-style ViewModels over HTTP and server-sent events.

            USAGE: bindery [serve] [options]     the examples (options below)
                   bindery bench <benchmark>     measurements (bindery bench --help)
                   bindery probe [--port <port>] [--path /readyz]
                                                 exits 0 if the local server answers 200
                                                 (a container's HEALTHCHECK; the port as for serve)

            """)
            print(ServeOptions.help(command: "bindery serve"))
        default:
            if arguments.first == "serve" { arguments.removeFirst() }
            serveExamples(arguments)
        }
    }
}

/// `bindery probe`: GET `--path` (default `/healthz`) from the server on
/// 127.0.0.1 at the port `serve` would use (`--port`, `BINDERY_PORT`, `PORT`);
/// 0 if it answers 200, 1 otherwise. For a container's HEALTHCHECK, where there is no curl.
func probe(_ arguments: [String]) -> Int32 {
    var arguments = arguments
    var path = "/healthz"
    if let index = arguments.firstIndex(of: "--path"), index + 1 < arguments.count {
        path = arguments[index + 1]
        arguments.removeSubrange(index...(index + 1))
    }
    do {
        let configuration = try ServeOptions.configuration(arguments: arguments, environment: ProcessInfo.processInfo.environment)
        let status = try HTTPClient(port: configuration.port).get(path).status
        print("\(path): \(status)")
        return status == 200 ? 0 : 1
    } catch {
        FileHandle.standardError.write(Data("bindery probe: \(error)\n".utf8))
        return 1
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
