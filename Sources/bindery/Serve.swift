import ArgumentParser
import BinderyServer
import Dispatch
import Examples
import Foundation

/// `bindery serve`: the examples on 127.0.0.1 until SIGINT/SIGTERM.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the server with the example ViewModels.")

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

    @Option(help: "Largest request body in bytes.")
    var maxBody = 64 * 1024

    @Option(help: "Seconds before a session with no stream and no request is disposed.")
    var sessionIdle = 600

    @Option(help: "Bytes of libmicrohttpd's memory pool per connection (headers and write buffer).")
    var connectionMemory = 16 * 1024

    func run() throws {
        // Line-buffered, so scripts reading our output see the address at once.
        setvbuf(stdout, nil, _IOLBF, 0)
        var configuration = ServerConfiguration()
        configuration.port = port
        configuration.loopbackOnly = !allInterfaces
        configuration.publicDirectory = URL(fileURLWithPath: publicDirectory)
        configuration.heartbeat = .seconds(heartbeat)
        configuration.maxStreams = maxStreams
        configuration.maxBodyBytes = maxBody
        configuration.connectionMemoryBytes = connectionMemory
        configuration.runtime.maxSessions = maxSessions
        configuration.runtime.sessionIdleTimeout = .seconds(sessionIdle)
        configuration.runtime.log = { message in FileHandle.standardError.write(Data("bindery: \(message)\n".utf8)) }

        let server = try buildServer(configuration)
        try server.start()
        print("Bindery listening on http://\(allInterfaces ? "0.0.0.0" : "127.0.0.1"):\(server.port)/")

        // The main thread waits for SIGINT or SIGTERM, stops the server (which
        // drains it) and returns: everything is released in order, exit status 0.
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
}
