import ArgumentParser
import Bindery
import BinderyServer
import BinderyTesting
import Dispatch
import Examples
import Foundation

/// `bindery serve`: the examples on 127.0.0.1 until SIGINT/SIGTERM.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the server with the example ViewModels.")

    @OptionGroup var options: ServeOptions

    func run() throws {
        try serveUntilSignalled(options)
    }
}

/// The options of `bindery serve`, shared with `bindery bench target` so that
/// the benchmark's server is configured exactly like the real one.
struct ServeOptions: ParsableArguments {
    @Option(help: "TCP port (0 picks a free one).")
    var port: UInt16 = 8080

    @Option(help: "Folder of the browser client.")
    var publicDirectory = "Public"

    @Flag(help: "Listen on every address instead of 127.0.0.1 only (for containers).")
    var allInterfaces = false

    @Option(help: "Seconds between keep-alive comments on each stream.")
    var heartbeat = 15

    @Option(help: "Most live sessions.")
    var maxSessions = 10_000

    @Option(help: "Most open event streams.")
    var maxStreams = 4_000

    @Option(help: "Most open event streams on one session.")
    var maxStreamsPerSession = RuntimeConfiguration().maxStreamsPerSession

    @Option(help: "Most open connections (streams included); libmicrohttpd refuses more.")
    var maxConnections = ServerConfiguration().maxConnections

    @Option(help: "libmicrohttpd worker threads.")
    var threads = ServerConfiguration().threads

    @Option(help: "Largest request body in bytes.")
    var maxBody = 64 * 1024

    @Option(help: "Seconds before a session with no stream and no request is disposed.")
    var sessionIdle = 600

    @Option(help: "Bytes of libmicrohttpd's memory pool per connection (headers and write buffer).")
    var connectionMemory = 16 * 1024

    func validate() throws {
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1") }
    }

    /// The server's configuration these options describe.
    var serverConfiguration: ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = port
        configuration.loopbackOnly = !allInterfaces
        configuration.publicDirectory = URL(fileURLWithPath: publicDirectory)
        configuration.heartbeat = .seconds(heartbeat)
        configuration.maxStreams = maxStreams
        configuration.maxConnections = maxConnections
        configuration.threads = threads
        configuration.maxBodyBytes = maxBody
        configuration.connectionMemoryBytes = connectionMemory
        configuration.runtime.maxSessions = maxSessions
        configuration.runtime.maxStreamsPerSession = maxStreamsPerSession
        configuration.runtime.sessionIdleTimeout = .seconds(sessionIdle)
        configuration.runtime.log = { message in FileHandle.standardError.write(Data("bindery: \(message)\n".utf8)) }
        return configuration
    }
}

/// Serves the examples (and whatever `register` adds) as `options` say, prints
/// the address, and runs until SIGINT or SIGTERM: then it drains the server and
/// returns, so everything is released in order and the process exits 0.
func serveUntilSignalled(_ options: ServeOptions, register: (Application) -> Void = { _ in }) throws {
    // Line-buffered, so scripts reading our output see the address at once.
    setvbuf(stdout, nil, _IOLBF, 0)
    // One descriptor per connection: up to --max-connections of them.
    ProcessStats.raiseFileLimit()
    let server = try buildServer(options.serverConfiguration, register: register)
    try server.start()
    print("Bindery listening on http://\(options.allInterfaces ? "0.0.0.0" : "127.0.0.1"):\(server.port)/")

    let stopRequested = DispatchSemaphore(value: 0)
    let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: DispatchQueue(label: "bindery.signals"))
        source.setEventHandler { stopRequested.signal() }
        source.resume()
        return source
    }
    stopRequested.wait()
    print("Bindery stopping…")
    server.stop()
    signals.forEach { $0.cancel() }
}
