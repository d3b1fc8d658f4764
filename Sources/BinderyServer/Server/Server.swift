import Bindery
import Foundation

/// Bindery's HTTP server: the runtime behind protocol v1, on libmicrohttpd.
///
/// `start` listens; `stop` ends every stream (clients reconnect and resume),
/// resumes suspended connections, stops the daemon and disposes the sessions.
public final class Server: @unchecked Sendable {
    /// The runtime served.
    public let application: Application
    /// The configuration in force.
    public let configuration: ServerConfiguration
    private let http: HTTPServer
    private let admission: StreamAdmission
    private var heartbeat: DispatchSourceTimer?

    /// A server for `application` with `configuration`.
    public init(application: Application, configuration: ServerConfiguration) {
        self.application = application
        self.configuration = configuration
        admission = StreamAdmission(limit: configuration.maxStreams)
        let router = Router(
            api: APIRouter(application: application, streams: admission, configuration: configuration),
            files: StaticFiles(directory: configuration.publicDirectory)
        )
        http = HTTPServer(configuration: configuration, respond: router.respond(to:))
    }

    /// The port listened on (useful with port 0).
    public var port: UInt16 { http.port }

    /// The number of open event streams.
    public var openStreams: Int { admission.count }

    /// Starts listening, the heartbeat and the idle-session reaper.
    public func start() throws {
        try http.start()
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let interval = Self.dispatchInterval(configuration.heartbeat)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [http] in
            for connection in http.openStreams { connection.stream.enqueue(raw: ": keep-alive\n\n") }
        }
        timer.resume()
        heartbeat = timer
        application.startIdleReaper(every: min(.seconds(30), configuration.runtime.sessionIdleTimeout))
    }

    /// Stops serving: streams end without `bindery.end`, so clients resume elsewhere or later.
    public func stop() {
        heartbeat?.cancel()
        heartbeat = nil
        http.stop()
        application.stop()
    }

    private static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
