import Bindery
import Foundation

/// Bindery's HTTP server: the runtime behind protocol v1, on libmicrohttpd.
///
/// `start` listens; `stop` drains (streams end so clients reconnect and
/// resume, requests in progress finish), stops the daemon and disposes the sessions.
public final class Server: @unchecked Sendable {
    /// The runtime served.
    public let application: Application
    /// The configuration in force.
    public let configuration: ServerConfiguration
    private let http: HTTPServer
    private let admission: StreamAdmission
    private let lock = NSLock()
    private var heartbeat: DispatchSourceTimer?

    /// A server for `application` with `configuration`.
    public init(application: Application, configuration: ServerConfiguration) {
        self.application = application
        self.configuration = configuration
        application.eventEncoder = ServerSentEvents.event
        admission = StreamAdmission(limit: configuration.maxStreams)
        let router = Router(
            api: APIRouter(application: application, streams: admission, configuration: configuration),
            files: StaticFiles(directory: configuration.publicDirectory),
            client: ClientFiles()
        )
        http = HTTPServer(configuration: configuration, router: router.respond(to:))
    }

    deinit { stop() }

    /// The port listened on (useful with port 0).
    public var port: UInt16 { http.port }

    /// The number of open event streams.
    public var openStreams: Int { admission.count }

    /// The number of open connections.
    public var openConnections: Int { http.connectionCount }

    /// Starts listening, the heartbeat and the idle-session reaper.
    public func start() throws {
        try http.start()
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let interval = Self.dispatchInterval(configuration.heartbeat)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [http] in http.heartbeat() }
        timer.resume()
        lock.withLock { heartbeat = timer }
        application.startIdleReaper(every: min(.seconds(30), configuration.runtime.sessionIdleTimeout))
    }

    /// Stops serving: streams end without `bindery.end`, so clients resume elsewhere or later.
    /// Blocks the caller until the server has stopped; later calls do nothing.
    public func stop() {
        lock.withLock {
            heartbeat?.cancel()
            heartbeat = nil
        }
        http.stop(grace: configuration.shutdownGrace)
        application.stop(grace: configuration.shutdownGrace)
    }

    private static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
