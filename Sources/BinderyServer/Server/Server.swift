import Bindery
import Foundation
import Synchronization

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
    private let router: Router
    private let lock = NSLock()
    private var heartbeat: DispatchSourceTimer?
    private var stalenessWatch: DispatchSourceTimer?
    /// What pages are told about the app itself, in development.
    private let development: DevelopmentNotices?

    /// A server for `application` with `configuration`; `application` was made
    /// with the encoding the server writes (`BinderyApp` makes both).
    init(application: Application, configuration: ServerConfiguration, development: DevelopmentNotices? = nil) {
        var configuration = configuration
        self.development = development
        let signIns = application.signIns.map {
            SignIns(
                store: $0, lifetime: configuration.signInLifetime, idleLimit: configuration.signInIdleLimit,
                scriptLifetime: configuration.scriptTokenLifetime)
        }
        configuration.readsSignInCookie = signIns != nil
        // Factories make, list and revoke scripts' tokens through it.
        if let signIns { application.services.register(signIns, as: (any ScriptTokens).self) }
        // Another node's sign-out (a cluster's): forgotten here at once, and an
        // identity signed out everywhere has its sessions here ended too.
        signIns?.store.signedOutElsewhere { [weak signIns, weak application] signOut in
            signIns?.forget(signOut)
            if case .identity(let identity) = signOut { application?.disposeSessions(ownedBy: identity) }
        }
        self.application = application
        self.configuration = configuration
        let telemetry = Telemetry(
            logger: configuration.runtime.logger, metrics: configuration.metrics,
            isRegistered: { [weak application] name in application?.isRegistered(name) ?? false })
        let admission = StreamAdmission(limit: configuration.maxStreams)
        self.admission = admission
        // The daemon, once made, for the routes that read its state: weakly, as
        // the daemon holds the router that holds these routes.
        final class Daemon: @unchecked Sendable { weak var server: HTTPServer? }
        let daemon = Daemon()
        let api = APIRouter(
            application: application, streams: admission,
            creations: SessionCreationRate(perSecond: configuration.sessionCreationRate, burst: configuration.sessionCreationBurst),
            configuration: configuration, telemetry: telemetry, signIns: signIns, development: development)
        let client = ClientFiles()
        let router = Router(
            edge: EdgePolicy(
                hosts: configuration.allowedHosts.map(AllowedHosts.init) ?? .loopback,
                proxies: (try? TrustedProxies(parsing: configuration.trustedProxies.joined(separator: ","))) ?? .none,
                telemetry: telemetry),
            api: api,
            files: StaticFiles(directory: configuration.publicDirectory),
            pages: configuration.pages,
            firstPaint: Self.firstPaint(api: api, client: client, configuration: configuration),
            client: client,
            pageHeaders: SecurityHeaders.page(policy: configuration.contentSecurityPolicy),
            authenticate: configuration.authenticate,
            signIns: signIns,
            signInPage: configuration.signInPage,
            whyNotReady: { [weak application] in
                guard daemon.server?.isReady ?? false else { return "the server is not accepting requests" }
                return application?.readiness.problem
            },
            metrics: { [weak application] in
                telemetry.scrape(
                    connections: daemon.server?.connectionCount ?? 0, streams: admission.count,
                    sessions: application?.sessionCounts ?? [:], published: application?.published.value ?? 0,
                    stored: application?.storedSessionCount ?? 0, rebuilt: application?.rebuiltSessionCount ?? 0)
            }
        )
        self.router = router
        http = HTTPServer(configuration: configuration, telemetry: telemetry, router: router.respond(to:))
        daemon.server = http
    }

    /// The pages' first paint, unless it is off or the client's table of binding kinds cannot be read.
    private static func firstPaint(api: APIRouter, client: ClientFiles, configuration: ServerConfiguration) -> FirstPaint? {
        guard configuration.firstPaint else { return nil }
        guard let script = client.data(named: "kinds.js"), let kinds = try? BindingKinds(script: script),
            let sanitizer = client.data(named: "sanitize.js"), let safeHTML = try? SafeHTML(script: sanitizer)
        else {
            configuration.runtime.logger.warning("pages go without their first paint: the client's kinds.js or sanitize.js cannot be read")
            return nil
        }
        // The modules under the client's digest, unless the app serves its own copy of the client.
        let ownClient = FileManager.default.fileExists(atPath: configuration.publicDirectory.appendingPathComponent(ClientFiles.prefix).path)
        return FirstPaint(
            api: api, render: PageRender(kinds: kinds, safeHTML: safeHTML), startWait: configuration.firstPaintWait,
            clientModules: ownClient ? nil : "/\(ClientFiles.prefix)/\(ClientFiles.version)/\(client.digest)/")
    }

    /// Routes `request` as a connection would, without libmicrohttpd or a
    /// socket: the response, once its session made it (router tests in memory).
    func respond(to request: Request) async -> Response {
        switch router.respond(to: request) {
        case .now(let response):
            return response
        case .later(let work):
            return await withCheckedContinuation { continuation in work { continuation.resume(returning: $0) } }
        }
    }

    deinit { stop() }

    /// The port listened on (useful with port 0).
    public var port: UInt16 { http.port }

    /// The number of open event streams.
    public var openStreams: Int { admission.count }

    /// The number of open connections.
    public var openConnections: Int { http.connectionCount }

    /// Connections accepted since the server started (closed ones included).
    var connectionsAccepted: UInt64 { http.connectionsAccepted }

    /// Whether the server accepts requests (false while it drains and after).
    var isAccepting: Bool { http.isReady }

    /// Requests received and not yet finished (waiting for their session, or being answered).
    var requestsInProgress: Int { http.requestsInFlight.inProgress }

    /// Starts listening, the heartbeat and the idle-session reaper.
    public func start() throws {
        do {
            if let hosts = configuration.allowedHosts { _ = try AllowedHosts(parsing: hosts.joined(separator: ",")) }
            _ = try TrustedProxies(parsing: configuration.trustedProxies.joined(separator: ","))
        } catch {
            throw ServerError("\(error)")
        }
        try http.start()
        if let warning = Self.hostWarning(configuration) { configuration.runtime.logger.warning("\(warning)") }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let interval = Self.dispatchInterval(configuration.heartbeat)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [http] in http.heartbeat() }
        timer.resume()
        // Once a second: when the application's data goes stale (a cluster's node
        // away from its database) or current again, every stream is told.
        let staleness = DispatchSource.makeTimerSource(queue: .global())
        staleness.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1))
        let wasStale = Atomic<Bool>(false)
        staleness.setEventHandler { [http, weak application] in
            guard let application else { return }
            let isStale = application.readiness.problem != nil
            if wasStale.exchange(isStale, ordering: .relaxed) != isStale { http.tell(ServerSentEvents.stale(isStale)) }
        }
        staleness.resume()
        lock.withLock { (heartbeat, stalenessWatch) = (timer, staleness) }
        if let development {
            development.startTelling { [http] in http.tell($0) }
            if let descriptor = configuration.devLoopNotices { development.listen(to: descriptor) }
        }
        let runtime = configuration.runtime
        application.startIdleReaper(every: min(.seconds(30), runtime.sessionIdleTimeout, runtime.unusedSessionTimeout / 2))
    }

    /// Stops serving: streams end without `bindery.end`, so clients resume elsewhere or later.
    /// Blocks the caller until the server has stopped; later calls do nothing.
    public func stop() {
        lock.withLock {
            heartbeat?.cancel()
            heartbeat = nil
            stalenessWatch?.cancel()
            stalenessWatch = nil
        }
        development?.stop()
        http.stop(grace: configuration.shutdownGrace)
        application.stop(grace: configuration.shutdownGrace)
    }

    /// What to tell the operator of a server reachable beyond this machine
    /// that answers only to localhost and addresses, because no host is named.
    static func hostWarning(_ configuration: ServerConfiguration) -> String? {
        guard configuration.allowedHosts == nil, !configuration.host.hasPrefix("127.") else { return nil }
        return "listening on \(configuration.host) but answering only to localhost and IP addresses: "
            + "name this server's host names with --allowed-hosts (or * for any)"
    }

    private static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
