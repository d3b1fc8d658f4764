import Bindery
import CMicroHTTPD
import Foundation

/// A libmicrohttpd daemon: `idle → running → draining → stopped`.
///
/// libmicrohttpd's epoll loop runs on a small thread pool, which only ever
/// parses requests, writes responses and suspends connections: a request that
/// needs a session is routed to the session's turn and its connection
/// suspended until the answer resumes it (see `Connection`).
///
/// Stopping drains: the listening socket stops accepting, every stream ends
/// (its client reconnects later and resumes), a new request on a kept-alive
/// connection gets a 503 with `Connection: close`, and the server waits for
/// the requests in progress to finish; a request whose session has not
/// answered within the grace period gets a 503. Only then, with nothing left
/// suspended, is the daemon stopped and the quiesced listening socket closed.
///
/// Ownership: the server owns every `Connection` in its table from
/// libmicrohttpd's `STARTED` notification to `CLOSED`; libmicrohttpd holds
/// unretained pointers to them (its socket context, each request's context,
/// each stream's reader) only in that time.
final class HTTPServer: @unchecked Sendable {
    private enum State { case idle, running, draining, stopped }

    let configuration: ServerConfiguration
    /// Where requests and streams are logged and counted.
    let telemetry: Telemetry
    /// Requests in progress, awaited when stopping.
    let requestsInFlight = RequestsInFlight()
    private let router: @Sendable (Request) -> Answer
    private let lock = NSLock()
    // Guarded by `lock`.
    private var state = State.idle
    private var daemon: OpaquePointer?
    private var connections: [UInt64: Connection] = [:]
    /// Connections that count against a client's share, by peer address.
    private var connectionsByPeer: [String: Int] = [:]
    /// Connections in the table that were admitted (not refused at connect).
    private var admitted = 0
    private var nextSerial: UInt64 = 1
    /// Closes connections whose deadline passed and streams that stalled.
    private var sweeper: DispatchSourceTimer?
    /// Peers that are proxies: their connections carry many clients', so no per-client share applies.
    private let proxies: TrustedProxies
    /// Tells streams whose client hung up while they slept: from `start` until
    /// the daemon has stopped (no stream exists outside that time).
    private(set) var hangups: (any HangupWatcher)!
    /// Which requests are uploads, and the folder their files arrive in.
    let uploads: UploadReceiving
    /// The folder was made for this server (no --upload-directory): it goes when the server stops.
    private let ownsUploadDirectory: Bool
    /// libmicrohttpd's logger closure: allocated here, freed once the daemon has stopped.
    private let logger: UnsafeMutablePointer<bindery_mhd_logger>

    /// The most bytes libmicrohttpd asks a stream for at once. Events are small; a
    /// smaller block leaves more of the per-connection pool free and costs only
    /// more reader calls during a burst.
    static let streamBlockBytes = 4 * 1024

    init(configuration: ServerConfiguration, telemetry: Telemetry, router: @escaping @Sendable (Request) -> Answer) {
        self.configuration = configuration
        self.telemetry = telemetry
        self.router = router
        proxies = (try? TrustedProxies(parsing: configuration.trustedProxies.joined(separator: ","))) ?? .none
        ownsUploadDirectory = configuration.uploadDirectory == nil
        uploads = UploadReceiving(
            rules: configuration.uploads,
            directory: configuration.uploadDirectory
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("bindery-uploads-\(getpid())-\(SessionID.make())"))
        logger = .allocate(capacity: 1)
        logger.initialize(to: bindery_mhd_logger(log: libmicrohttpdMessage, cls: nil))
    }

    deinit {
        // A daemon that started has stopped by now: `Server` stops it before it lets go of this.
        logger.deallocate()
    }

    /// A message of libmicrohttpd's. A client that leaves while its response is
    /// written is routine for event streams (every closed tab), not an error.
    fileprivate func log(libmicrohttpd message: String) {
        let routine = [
            "no longer available for sending", "forcibly closed by remote peer",
            "Failed to send the chunked response body", "Failed to send the footers",
        ]
        guard !routine.contains(where: message.contains) else { return }
        telemetry.logger.warning("libmicrohttpd: \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
    }

    /// The port the daemon listens on.
    private(set) var port: UInt16 = 0

    /// Starts listening.
    func start() throws {
        if !uploads.isEmpty {
            do {
                try FileManager.default.createDirectory(at: uploads.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ServerError("uploads cannot arrive in \(uploads.directory.path): \(error.localizedDescription)")
            }
        }
        var address = in_addr()
        guard inet_pton(AF_INET, configuration.host, &address) == 1 else {
            throw ServerError("the host must be an IPv4 address such as 127.0.0.1 or 0.0.0.0 (got '\(configuration.host)')")
        }
        var settings = bindery_mhd_settings(
            port: configuration.port,
            thread_pool_size: configuration.threads,
            // Room beyond the limit, so that a client over it is answered 503 at
            // once rather than left in the listen queue (libmicrohttpd stops
            // accepting at its own limit).
            connection_limit: configuration.maxConnections + Self.refusalRoom,
            connection_memory_limit: configuration.connectionMemoryBytes,
            connection_timeout: configuration.connectionTimeoutSeconds,
            per_ip_connection_limit: 0,
            ipv4_address: address.s_addr,
            use_poll: configuration.socketWaiting == .poll ? 1 : 0
        )
        var callbacks = bindery_mhd_callbacks(
            request: accessHandler, completed: requestCompleted, connection: connectionNotified,
            request_line: requestLine, cls: Unmanaged.passUnretained(self).toOpaque())
        logger.pointee.cls = Unmanaged.passUnretained(self).toOpaque()
        try lock.withLock {
            guard state == .idle else { throw ServerError("a server starts once") }
            hangups = makeHangupWatcher(configuration.socketWaiting) { [weak self] serial in
                guard let self else { return }
                lock.withLock { connections[serial] }?.peerHungUp()
            }
            guard let daemon = bindery_mhd_start(&settings, &callbacks, logger) else {
                hangups.stop()
                throw ServerError("could not listen on \(configuration.host):\(configuration.port) (in use?)")
            }
            self.daemon = daemon
            port = bindery_mhd_port(daemon)
            state = .running
            let timer = DispatchSource.makeTimerSource(queue: .global())
            let interval = Self.sweepInterval(configuration)
            timer.schedule(deadline: .now() + interval, repeating: interval)
            timer.setEventHandler { [weak self] in self?.sweep() }
            timer.resume()
            sweeper = timer
        }
    }

    /// Connections libmicrohttpd accepts beyond `maxConnections`, only to answer them 503.
    static let refusalRoom: UInt32 = 256
    /// How long a refused connection's request may take to arrive before it is closed unanswered.
    static let refusalDeadline: Duration = .seconds(2)

    /// Often enough that a deadline is kept to within a quarter of the shortest, at most a second late.
    private static func sweepInterval(_ configuration: ServerConfiguration) -> DispatchTimeInterval {
        let shortest = [configuration.headerTimeout, configuration.bodyTimeout, configuration.stalledStreamTimeout, .seconds(4)].min()!
        return .milliseconds(max(10, Int(shortest.nanoseconds / 4_000_000)))
    }

    /// Closes what overstayed (`Connection.sweep`) and counts why.
    private func sweep() {
        let now = ContinuousClock.now
        for connection in lock.withLock({ Array(connections.values) }) {
            switch connection.sweep(now: now, stallTimeout: configuration.stalledStreamTimeout) {
            case .timedOut(let reason):
                telemetry.refused(reason, client: connection.peer, detail: "the request did not arrive in time")
            case .stalled, nil:
                break
            }
        }
    }

    /// Routes a complete request.
    func route(_ request: Request) -> Answer { router(request) }

    /// Writes a keep-alive comment down every stream.
    func heartbeat() {
        for connection in lock.withLock({ Array(connections.values) }) { connection.heartbeat() }
    }

    /// Tells every stream `bytes` of its own (`EventStream.tell`).
    func tell(_ bytes: [UInt8]) {
        for connection in lock.withLock({ Array(connections.values) }) { connection.tell(bytes) }
    }

    /// The number of open connections.
    var connectionCount: Int { lock.withLock { connections.count } }

    /// The number of connections accepted since the server started.
    var connectionsAccepted: UInt64 { lock.withLock { nextSerial - 1 } }

    /// Drains and stops (see the type's comment); later calls do nothing.
    func stop(grace: Duration) {
        guard
            let (daemon, open) = lock.withLock({ () -> (OpaquePointer, [Connection])? in
                guard state == .running, let daemon else {
                    if state == .idle { state = .stopped }
                    return nil
                }
                state = .draining
                return (daemon, Array(connections.values))
            })
        else { return }

        let listener = MHD_quiesce_daemon(daemon)
        open.forEach { $0.drain() }
        let (seconds, attoseconds) = grace.components
        let graceEnd = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
        if !requestsInFlight.waitUntilIdle(before: graceEnd) {
            // Sessions that never answered: their clients get a 503, and nothing stays suspended.
            let stopping = self.stopping.closing
            for connection in lock.withLock({ Array(connections.values) }) { connection.drain(answeringWith: stopping) }
            if !requestsInFlight.waitUntilIdle(before: Date(timeIntervalSinceNow: 1)) {
                telemetry.logger.warning("stopping with requests unfinished", metadata: ["requests": "\(requestsInFlight.inProgress)"])
            }
        }
        lock.withLock {
            sweeper?.cancel()
            sweeper = nil
        }
        MHD_stop_daemon(daemon)
        hangups.stop()
        // Every request is done, and with it every upload's file: a folder of this server's own goes.
        if !uploads.isEmpty && ownsUploadDirectory { try? FileManager.default.removeItem(at: uploads.directory) }
        if listener != bindery_mhd_invalid_socket() { close(listener) }
        lock.withLock {
            self.daemon = nil
            state = .stopped
        }
    }

    /// `error`, counted and logged as a refusal for `reason` of a request from `client`.
    func refused(_ error: HTTPError, reason: Refusal, client: String) -> HTTPError {
        telemetry.refused(reason, client: client, detail: error.message)
        return error
    }

    /// 413 for a body over the limit.
    var tooLarge: HTTPError {
        HTTPError(status: 413, code: "body_too_large", message: "the body is larger than \(configuration.maxBodyBytes) bytes")
    }

    /// Whether the server accepts requests (not starting, draining or stopped): `/readyz`.
    var isReady: Bool { lock.withLock { state == .running } }

    /// 503 while stopping.
    var stopping: HTTPError {
        HTTPError(
            status: 503, code: "shutting_down", message: "the server is stopping; try again in a moment",
            headers: [("Retry-After", "1")])
    }

    fileprivate func connectionStarted(_ pointer: OpaquePointer) -> UnsafeMutableRawPointer {
        let peer = Connection.peer(of: pointer)
        let isProxy = proxies.contains(peer)
        let (connection, refused) = lock.withLock { () -> (Connection, Refusal?) in
            var refusal: HTTPError?, reason: Refusal?
            // A client over its own share hears so first: the server's limit is everyone's.
            if !isProxy, connectionsByPeer[peer, default: 0] >= configuration.maxConnectionsPerClient {
                reason = .clientConnectionLimit
                refusal = HTTPError(
                    status: 429, code: "too_many_connections",
                    message: "this client already has \(configuration.maxConnectionsPerClient) connections open", headers: [("Retry-After", "1")])
            } else if admitted >= Int(configuration.maxConnections) {
                reason = .connectionLimit
                refusal = HTTPError(
                    status: 503, code: "limit_reached", message: "the server already has \(configuration.maxConnections) connections open",
                    headers: [("Retry-After", "1")])
            }
            let counts = refusal == nil && !isProxy
            let connection = Connection(
                pointer, server: self, serial: nextSerial, peer: peer, draining: state != .running,
                refusal: refusal, countsAgainstPeer: counts)
            connections[nextSerial] = connection
            nextSerial += 1
            if refusal == nil { admitted += 1 }
            if counts { connectionsByPeer[peer, default: 0] += 1 }
            return (connection, reason)
        }
        if let refused { telemetry.refused(refused, client: peer, detail: "connection over the limit") }
        return Unmanaged.passUnretained(connection).toOpaque()
    }

    fileprivate func connectionClosed(_ context: UnsafeMutableRawPointer) {
        let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
        connection.closed()
        lock.withLock {
            guard connections.removeValue(forKey: connection.serial) != nil else { return }
            if connection.isAdmitted { admitted -= 1 }
            if connection.countsAgainstPeer {
                let left = connectionsByPeer[connection.peer, default: 1] - 1
                connectionsByPeer[connection.peer] = left > 0 ? left : nil
            }
        }
    }
}

/// A server that could not start.
public struct ServerError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}

private let libmicrohttpdMessage: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = { cls, message in
    guard let cls, let message else { return }
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().log(libmicrohttpd: String(cString: message))
}

private let accessHandler: MHD_AccessHandlerCallback = { _, pointer, url, method, version, upload, uploadSize, context in
    marking(.libmicrohttpd) { handle(pointer, url, method, version, upload, uploadSize, context) }
}

@inline(__always)
private func handle(
    _ pointer: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?,
    _ upload: UnsafePointer<CChar>?, _ uploadSize: UnsafeMutablePointer<Int>?, _ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let pointer, let url, let method, let version, let uploadSize, let context else { return .NO }
    let isFirstCall = context.pointee == nil
    if isFirstCall {
        // The request's context is its connection: marks that the headers were seen.
        guard let connection = bindery_mhd_socket_context(pointer) else { return .NO }
        context.pointee = connection
    }
    let connection = Unmanaged<Connection>.fromOpaque(context.pointee!).takeUnretainedValue()
    return connection.handle(method: method, url: url, version: version, upload: upload, uploadSize: uploadSize, isFirstCall: isFirstCall)
}

/// libmicrohttpd's URI logger: the request line's target before it is decoded.
/// Returns nil, so the access handler's first call still finds no context.
private let requestLine: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { _, target, pointer in
    guard let target, let pointer, let context = bindery_mhd_socket_context(pointer) else { return nil }
    marking(.libmicrohttpd) { Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue().requestLine(target: target) }
    return nil
}

private let requestCompleted: MHD_RequestCompletedCallback = { _, _, context, _ in
    guard let context, let pointer = context.pointee else { return }
    marking(.libmicrohttpd) { Unmanaged<Connection>.fromOpaque(pointer).takeUnretainedValue().requestCompleted() }
    context.pointee = nil
}

private let connectionNotified: MHD_NotifyConnectionCallback = { cls, pointer, socketContext, event in
    guard let cls, let pointer, let socketContext else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    marking(.libmicrohttpd) {
        if bindery_mhd_connection_started(event) != 0 {
            socketContext.pointee = server.connectionStarted(pointer)
        } else if bindery_mhd_connection_closed(event) != 0 {
            if let context = socketContext.pointee { server.connectionClosed(context) }
            socketContext.pointee = nil
        }
    }
}
