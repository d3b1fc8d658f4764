import ArgumentParser

/// The `bindery` command: serve the examples, or measure.
@main
struct BinderyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bindery",
        abstract: "Serve RxSwift-style ViewModels over HTTP and server-sent events.",
        subcommands: [Serve.self, Bench.self],
        defaultSubcommand: Serve.self
    )
}
