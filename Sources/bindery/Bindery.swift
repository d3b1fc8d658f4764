import BinderyServer
import ExampleApp
import Foundation

/// The `bindery` executable: `bindery [serve] [options]` serves the examples
/// and the todo list; `bindery probe` asks the local server whether it is up.
/// Serving parses its options with `ServeOptions`, like every Bindery app.
/// Benchmarks are a package of their own, `Benchmarks/` (`bindery-bench`).
@main
enum Main {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "probe":
            exit(Probe.run(Array(arguments.dropFirst())))
        case "--version", "version":
            print(BinderyVersion.line(command: "bindery"))
        case "help", "-h", "--help":
            print(
                """
                Serve RxSwift-style ViewModels over HTTP and server-sent events.

                USAGE: bindery [serve] [options]     the examples (options below)
                       bindery --version                 which Bindery this is
                       bindery probe [--port <port>] [--path /readyz]
                                                     exits 0 if the local server answers 200
                                                     (a container's HEALTHCHECK; the port as for serve)
                       bindery dev [options]         in this checkout: the examples, rebuilt and
                                                     restarted as the sources change (pages keep their state)

                """)
            print(ServeOptions.help(command: "bindery serve", defaults: BinderyApp.defaultConfiguration))
        default:
            if arguments.first == "serve" { arguments.removeFirst() }
            ExampleApp.serve(arguments)
        }
    }
}
