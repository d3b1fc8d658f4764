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
    let activity = Activity()
    private let router: @Sendable (Request) -> Answer
    private let lock = NSLock()
    // Guarded by `lock`.
    private var state = State.idle
    private var daemon: OpaquePointer?
    private var connections: [UInt64: Connection] = [:]
    private var nextSerial: UInt64 = 1
    /// Tells streams whose client hung up while they slept: from `start` until
    /// the daemon has stopped (no stream exists outside that time).
    private(set) var hangups: HangupWatcher!
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
        let routine = ["no longer available for sending", "forcibly closed by remote peer",
                       "Failed to send the chunked response body", "Failed to send the footers"]
        guard !routine.contains(where: message.contains) else { return }
        telemetry.logger.warning("libmicrohttpd: \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
    }

    /// The port the daemon listens on.
    private(set) var port: UInt16 = 0

    /// Starts listening.
    func start() throws {
        var address = in_addr()
        guard inet_pton(AF_INET, configuration.host, &address) == 1 else {
            throw ServerError("the host must be an IPv4 address such as 127.0.0.1 or 0.0.0.0 (got '\(configuration.host)')")
        }
        var settings = bindery_mhd_settings(
            port: configuration.port,
            thread_pool_size: configuration.threads,
            connection_limit: configuration.maxConnections,
            connection_memory_limit: configuration.connectionMemoryBytes,
            connection_timeout: configuration.connectionTimeoutSeconds,
            per_ip_connection_limit: 0,
            ipv4_address: address.s_addr
        )
        var callbacks = bindery_mhd_callbacks(request: accessHandler, completed: requestCompleted, connection: connectionNotified,
                                              request_line: requestLine, cls: Unmanaged.passUnretained(self).toOpaque())
        logger.pointee.cls = Unmanaged.passUnretained(self).toOpaque()
        try lock.withLock {
            guard state == .idle else { throw ServerError("a server starts once") }
            hangups = HangupWatcher { [weak self] serial in
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
        }
    }

    /// Routes a complete request.
    func route(_ request: Request) -> Answer { router(request) }

    /// Writes a keep-alive comment down every stream.
    func heartbeat() {
        for connection in lock.withLock({ Array(connections.values) }) { connection.heartbeat() }
    }

    /// The number of open connections.
    var connectionCount: Int { lock.withLock { connections.count } }

    /// Drains and stops (see the type's comment); later calls do nothing.
    func stop(grace: Duration) {
        guard let (daemon, open) = lock.withLock({ () -> (OpaquePointer, [Connection])? in
            guard state == .running, let daemon else {
                if state == .idle { state = .stopped }
                return nil
            }
            state = .draining
            return (daemon, Array(connections.values))
        }) else { return }

        let listener = MHD_quiesce_daemon(daemon)
        open.forEach { $0.drain() }
        let (seconds, attoseconds) = grace.components
        let graceEnd = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
        if !activity.waitUntilIdle(before: graceEnd) {
            // Sessions that never answered: their clients get a 503, and nothing stays suspended.
            let stopping = self.stopping.closing
            for connection in lock.withLock({ Array(connections.values) }) { connection.drain(answeringWith: stopping) }
            if !activity.waitUntilIdle(before: Date(timeIntervalSinceNow: 1)) {
                telemetry.logger.warning("stopping with requests unfinished", metadata: ["requests": "\(activity.inProgress)"])
            }
        }
        MHD_stop_daemon(daemon)
        hangups.stop()
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
        HTTPError(status: 503, code: "shutting_down", message: "the server is stopping; try again in a moment",
                  headers: [("Retry-After", "1")])
    }

    fileprivate func connectionStarted(_ pointer: OpaquePointer) -> UnsafeMutableRawPointer {
        lock.withLock {
            let connection = Connection(pointer, server: self, serial: nextSerial, draining: state != .running)
            connections[nextSerial] = connection
            nextSerial += 1
            return Unmanaged.passUnretained(connection).toOpaque()
        }
    }

    fileprivate func connectionClosed(_ context: UnsafeMutableRawPointer) {
        let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
        connection.closed()
        lock.withLock { _ = connections.removeValue(forKey: connection.serial) }
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
    guard let pointer, let url, let method, let version, let uploadSize, let context else { return .NO }
    let isFirstCall = context.pointee == nil
    if isFirstCall {
        // The request's context is its connection: marks that the headers were seen.
        guard let connection = bindery_mhd_socket_context(pointer) else { return .NO }
        context.pointee = connection
    }
    let connection = Unmanaged<Connection>.fromOpaque(context.pointee!).takeUnretainedValue()
    return connection.handle(method: String(cString: method), url: String(cString: url), version: String(cString: version),
                             upload: upload, uploadSize: uploadSize, isFirstCall: isFirstCall)
}

/// libmicrohttpd's URI logger: the request line's target before it is decoded.
/// Returns nil, so the access handler's first call still finds no context.
private let requestLine: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { _, target, pointer in
    guard let target, let pointer, let context = bindery_mhd_socket_context(pointer) else { return nil }
    Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue().requestLine(target: target)
    return nil
}

private let requestCompleted: MHD_RequestCompletedCallback = { _, _, context, _ in
    guard let context, let pointer = context.pointee else { return }
    Unmanaged<Connection>.fromOpaque(pointer).takeUnretainedValue().requestCompleted()
    context.pointee = nil
}

private let connectionNotified: MHD_NotifyConnectionCallback = { cls, pointer, socketContext, event in
    guard let cls, let pointer, let socketContext else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    if bindery_mhd_connection_started(event) != 0 {
        socketContext.pointee = server.connectionStarted(pointer)
    } else if bindery_mhd_connection_closed(event) != 0 {
        if let context = socketContext.pointee { server.connectionClosed(context) }
        socketContext.pointee = nil
    }
}
