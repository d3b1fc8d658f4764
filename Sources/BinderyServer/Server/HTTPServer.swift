import Bindery
import CMicroHTTPD
import Foundation

/// A libmicrohttpd daemon that hands complete requests to a responder.
///
/// Runs libmicrohttpd's internal epoll loop on a small thread pool. Requests
/// under `/api` may wait for a busy session, so they are answered on a queue
/// of their own while their connection is suspended, and queued when it
/// resumes: a ViewModel that takes its time holds no worker thread, and other
/// sessions go on. Static files are answered on the worker. Event streams are
/// written through `StreamConnection`, suspended while idle. `stop` ends every
/// stream, resumes every suspended connection and only then stops the daemon.
final class HTTPServer: @unchecked Sendable {
    private let configuration: ServerConfiguration
    private let respond: (Request) -> Response
    private var daemon: OpaquePointer?
    private let lock = NSLock()
    private var streams: [ObjectIdentifier: StreamConnection] = [:]
    /// Requests being answered off the workers, with their suspended connection.
    private var inFlight: [ObjectIdentifier: (request: RequestContext, connection: OpaquePointer)] = [:]
    /// Requests `stop` answered with a 503, until libmicrohttpd has sent it.
    private var answeredAtStop: Set<ObjectIdentifier> = []

    init(configuration: ServerConfiguration, respond: @escaping (Request) -> Response) {
        self.configuration = configuration
        self.respond = respond
    }

    /// The port the daemon listens on.
    private(set) var port: UInt16 = 0

    /// Starts listening.
    func start() throws {
        var settings = bindery_mhd_settings(
            port: configuration.port,
            thread_pool_size: configuration.threads,
            connection_limit: configuration.maxConnections,
            connection_memory_limit: configuration.connectionMemoryBytes,
            connection_timeout: configuration.connectionTimeoutSeconds,
            per_ip_connection_limit: 0,
            loopback_only: configuration.loopbackOnly ? 1 : 0
        )
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let daemon = bindery_mhd_start(&settings, accessHandler, me, requestCompleted, me) else {
            throw ServerError("could not start libmicrohttpd on port \(configuration.port) (in use?)")
        }
        self.daemon = daemon
        port = bindery_mhd_port(daemon)
    }

    /// The streams open now.
    var openStreams: [StreamConnection] { lock.withLock { Array(streams.values) } }

    /// Stops accepting, ends every stream (clients reconnect and resume), then stops the daemon.
    func stop(grace: Duration = .seconds(2)) {
        guard let daemon else { return }
        _ = MHD_quiesce_daemon(daemon)
        openStreams.forEach { $0.stream.close() }
        let deadline = ContinuousClock.now + grace
        while !lock.withLock({ streams.isEmpty && inFlight.isEmpty }), ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        // A connection still suspended here must be resumed: stopping the daemon
        // with suspended connections leaks them (libmicrohttpd's rule). A request
        // whose session is still busy gets a 503 instead of its answer.
        openStreams.forEach { $0.resume() }
        lock.withLock {
            for (id, (request, connection)) in inFlight {
                request.response = HTTPError(status: 503, code: "shutting_down", message: "the server is stopping").response
                answeredAtStop.insert(id)
                MHD_resume_connection(connection)
            }
            inFlight = [:]
        }
        let sent = ContinuousClock.now + .seconds(1)
        while !lock.withLock({ answeredAtStop.isEmpty }), ContinuousClock.now < sent {
            Thread.sleep(forTimeInterval: 0.01)
        }
        MHD_stop_daemon(daemon)
        self.daemon = nil
    }

    fileprivate func handle(_ connection: OpaquePointer, url: String, method: String, upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let pointer = context.pointee else {
            let request = RequestContext(limit: configuration.maxBodyBytes)
            context.pointee = Unmanaged.passRetained(request).toOpaque()
            if let length = header(connection, "Content-Length").flatMap(Int.init), length > configuration.maxBodyBytes {
                request.hasResponded = true
                return queue(tooLarge.response, on: connection)
            }
            return .YES
        }
        let request = Unmanaged<RequestContext>.fromOpaque(pointer).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if let upload { request.append(UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee)) }
            uploadSize.pointee = 0
            return .YES
        }
        if let response = lock.withLock({ () -> Response? in defer { request.response = nil }; return request.response }) {
            return queue(response, on: connection)
        }
        if request.hasResponded { return .YES }
        request.hasResponded = true
        if request.isTooLarge { return queue(tooLarge.response, on: connection) }
        let incoming = Request(method: method, path: url, headers: values(connection, .HEADER_KIND, lowercased: true),
                               body: request.body, query: values(connection, .GET_ARGUMENT_KIND, lowercased: false))
        guard incoming.segments.first == "api" else { return queue(respond(incoming), on: connection) }
        answerOffThread(incoming, request, connection)
        return .YES
    }

    /// Suspends the connection, makes the response on the responder queue, and
    /// resumes the connection so libmicrohttpd calls `handle` again to queue it.
    private func answerOffThread(_ incoming: Request, _ request: RequestContext, _ connection: OpaquePointer) {
        let id = ObjectIdentifier(request)
        lock.withLock { inFlight[id] = (request, connection) }
        MHD_suspend_connection(connection)
        // A queue of its own: libdispatch gives a busy serial queue its own thread,
        // while a shared or concurrent queue would let requests blocked on busy
        // sessions starve the rest. The session's scheduler orders its inputs.
        DispatchQueue(label: "bindery.responder").async { [self] in
            let response = respond(incoming)
            // Resumed under the lock, so `stop` never sees a connection resumed
            // after it stopped the daemon, and never resumes one twice.
            lock.withLock {
                guard inFlight.removeValue(forKey: id) != nil else { return }
                request.response = response
                MHD_resume_connection(connection)
            }
        }
    }

    /// The most bytes libmicrohttpd asks a stream for at once. Events are small; a
    /// smaller block leaves more of the per-connection pool free and costs only
    /// more reader calls during a burst.
    private static let streamBlockBytes = 4 * 1024

    private var tooLarge: HTTPError {
        HTTPError(status: 413, code: "body_too_large", message: "the body is larger than \(configuration.maxBodyBytes) bytes")
    }

    fileprivate func completed(_ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let context, let pointer = context.pointee else { return }
        let request = Unmanaged<RequestContext>.fromOpaque(pointer)
        _ = lock.withLock { answeredAtStop.remove(ObjectIdentifier(request.takeUnretainedValue())) }
        request.release()
        context.pointee = nil
    }

    private func header(_ connection: OpaquePointer, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }

    /// Headers or query arguments of the request, by name.
    private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercased: Bool) -> [String: String] {
        final class Box { var values: [String: String] = [:]; var lowercased = false }
        let box = Box()
        box.lowercased = lowercased
        _ = MHD_get_connection_values(connection, kind, { cls, _, key, value in
            guard let cls, let key else { return .YES }
            let box = Unmanaged<Box>.fromOpaque(cls).takeUnretainedValue()
            let name = String(cString: key)
            box.values[box.lowercased ? name.lowercased() : name] = value.map { String(cString: $0) } ?? ""
            return .YES
        }, Unmanaged.passUnretained(box).toOpaque())
        return box.values
    }

    private func queue(_ response: Response, on connection: OpaquePointer) -> MHD_Result {
        let mhdResponse: OpaquePointer?
        switch response.body {
        case .data(let data):
            mhdResponse = data.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .stream(let stream, let onClose):
            let streamConnection = StreamConnection(stream: stream, connection: connection, onClose: onClose)
            let id = ObjectIdentifier(streamConnection)
            lock.withLock { streams[id] = streamConnection }
            let unregister: () -> Void = { [weak self] in _ = self?.lock.withLock { self?.streams.removeValue(forKey: id) } }
            let holder = StreamHolder(connection: streamConnection, unregister: unregister)
            let retained = Unmanaged.passRetained(holder)
            mhdResponse = MHD_create_response_from_callback(bindery_mhd_size_unknown(), Self.streamBlockBytes, streamReader, retained.toOpaque(), streamFreed)
            if mhdResponse == nil {
                holder.finish()
                retained.release()
            }
        }
        guard let mhdResponse else { return .NO }
        for (name, value) in response.headers { MHD_add_response_header(mhdResponse, name, value) }
        let result = MHD_queue_response(connection, UInt32(response.status), mhdResponse)
        MHD_destroy_response(mhdResponse)
        return result
    }
}

/// Ties a stream's lifetime to libmicrohttpd's response: released in the free callback.
private final class StreamHolder {
    let connection: StreamConnection
    let unregister: () -> Void
    init(connection: StreamConnection, unregister: @escaping () -> Void) {
        self.connection = connection
        self.unregister = unregister
    }
    /// The response is gone: end the stream and forget the connection.
    func finish() {
        connection.close()
        unregister()
    }
}

/// A server that could not start.
public struct ServerError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, context in
    guard let cls, let connection, let url, let method, let uploadSize, let context else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    return server.handle(connection, url: String(cString: url), method: String(cString: method), upload: upload, uploadSize: uploadSize, context: context)
}

private let requestCompleted: MHD_RequestCompletedCallback = { cls, _, context, _ in
    guard let cls else { return }
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().completed(context)
}

private let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return bindery_mhd_reader_end_with_error() }
    return Unmanaged<StreamHolder>.fromOpaque(cls).takeUnretainedValue().connection.read(into: buffer, max: max)
}

private let streamFreed: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<StreamHolder>.fromOpaque(cls).takeRetainedValue().finish()
}
