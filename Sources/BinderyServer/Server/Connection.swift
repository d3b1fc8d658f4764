import Bindery
import CMicroHTTPD
import Foundation

/// One libmicrohttpd connection and the request it is on: the only object
/// that suspends and resumes it.
///
/// A request goes `idle → receiving → answering → answered → sending` (or
/// `→ streaming`) and back to `idle` for the next one on a keep-alive
/// connection; the connection is `done` when libmicrohttpd closes it.
/// `answering` (a session makes the answer) is always suspended; `streaming` is
/// suspended whenever the stream has nothing to write. Resuming happens only
/// from a suspended phase, once per suspension, and never after `done`; and
/// finishing a request or closing the connection gives back whatever the phase
/// holds (an answer never sent, a stream's subscription and admission).
///
/// Threading: libmicrohttpd calls in on the connection's daemon thread;
/// sessions answer and streams wake it from their turns; the server drains it
/// from the stopping thread. One lock orders them all. libmicrohttpd is called
/// with it held, which is safe because libmicrohttpd never holds a lock of its
/// own while it calls us, and it means a resume can never race the connection's
/// closing (`MHD_CONNECTION_NOTIFY_CLOSED` takes the lock before the memory goes).
final class Connection: @unchecked Sendable {
    private enum Phase {
        case idle
        case receiving(RequestBody)
        case answering
        case answered(Response)
        case sending
        case streaming(EventStreamWriter, suspended: Bool)
        case done
    }

    /// The libmicrohttpd connection; valid until `closed`.
    private let pointer: OpaquePointer
    private unowned let server: HTTPServer
    private let lock = NSLock()
    // Guarded by `lock`.
    private var phase = Phase.idle
    private var isDraining: Bool

    init(_ pointer: OpaquePointer, server: HTTPServer, draining: Bool) {
        self.pointer = pointer
        self.server = server
        isDraining = draining
    }

    /// libmicrohttpd's access handler: headers, then body pieces, then the end of the request.
    func handle(method: String, url: String, upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>, isFirstCall: Bool) -> MHD_Result {
        lock.lock()
        if isFirstCall {
            server.activity.begin()
            let body = RequestBody(limit: server.configuration.maxBodyBytes)
            phase = .receiving(body)
            if let length = header("Content-Length").flatMap(Int.init), length > server.configuration.maxBodyBytes {
                defer { lock.unlock() }
                return queueLocked(server.tooLarge.closing)
            }
            lock.unlock()
            return .YES
        }
        if uploadSize.pointee > 0 {
            if case .receiving(let body) = phase, let upload {
                body.append(UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee))
            }
            uploadSize.pointee = 0 // taken, or dropped after an early answer
            lock.unlock()
            return .YES
        }
        switch phase {
        case .answered(let response):
            defer { lock.unlock() }
            return queueLocked(response)
        case .receiving(let body):
            if body.isTooLarge {
                defer { lock.unlock() }
                return queueLocked(server.tooLarge.closing)
            }
            if isDraining {
                defer { lock.unlock() }
                return queueLocked(server.stopping.closing)
            }
            let request = Request(method: method, path: url, headers: values(.HEADER_KIND, Request.headerNames),
                                  body: body.data, query: values(.GET_ARGUMENT_KIND, Request.queryNames))
            switch server.route(request) {
            case .now(let response):
                defer { lock.unlock() }
                return queueLocked(response)
            case .later(let work):
                phase = .answering
                MHD_suspend_connection(pointer)
                lock.unlock()
                work { [self] response in answer(response) }
                return .YES
            }
        case .idle, .answering, .sending, .streaming, .done:
            lock.unlock()
            return .YES
        }
    }

    /// The answer a session made: queued when libmicrohttpd calls `handle` again.
    private func answer(_ response: Response) {
        let discarded = lock.withLock { () -> Bool in
            guard case .answering = phase else { return true }
            phase = .answered(response)
            MHD_resume_connection(pointer)
            return false
        }
        if discarded { response.discard() }
    }

    /// libmicrohttpd's content reader for an event stream: bytes, the end, or suspend and 0.
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        lock.withLock {
            guard case .streaming(let writer, _) = phase else { return bindery_mhd_reader_end_with_error() }
            switch writer.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max)) {
            case .bytes(let count):
                return count
            case .end:
                return bindery_mhd_reader_end_of_stream()
            case .idle:
                // Never return 0 without suspending: libmicrohttpd would call again at once and spin.
                phase = .streaming(writer, suspended: true)
                MHD_suspend_connection(pointer)
                return 0
            }
        }
    }

    /// The stream has bytes again: resume the connection if it sleeps.
    func wake() {
        lock.withLock { resumeStreamLocked() }
    }

    /// A keep-alive comment is due on the stream, if this connection is one.
    func heartbeat() {
        lock.withLock {
            guard case .streaming(let writer, _) = phase else { return }
            writer.heartbeatDue = true
            resumeStreamLocked()
        }
    }

    private func resumeStreamLocked() {
        guard case .streaming(let writer, suspended: true) = phase else { return }
        phase = .streaming(writer, suspended: false)
        MHD_resume_connection(pointer)
    }

    /// The server stops: streams end now (clients reconnect later), the next
    /// request gets a 503, and a request still waiting for its session gets
    /// `answeringWith` if given (after the grace period).
    func drain(answeringWith response: Response? = nil) {
        lock.withLock {
            isDraining = true
            switch phase {
            case .streaming(let writer, let suspended):
                writer.close()
                if suspended { resumeStreamLocked() }
            case .answering:
                guard let response else { return }
                phase = .answered(response)
                MHD_resume_connection(pointer)
            case .idle, .receiving, .answered, .sending, .done:
                break
            }
        }
    }

    /// libmicrohttpd finished the request (sent, failed or aborted): give back what it held.
    func requestCompleted() {
        lock.withLock { finishRequestLocked(next: .idle) }
    }

    /// libmicrohttpd closed the connection: nothing touches it again.
    func closed() {
        lock.withLock { finishRequestLocked(next: .done) }
    }

    private func finishRequestLocked(next: Phase) {
        switch phase {
        case .idle, .done:
            if case .done = next { phase = .done }
            return
        case .answered(let response):
            response.discard()
        case .streaming(let writer, _):
            writer.close()
        case .receiving, .answering, .sending:
            break
        }
        phase = next
        server.activity.end()
    }

    private func queueLocked(_ response: Response) -> MHD_Result {
        let mhdResponse: OpaquePointer?
        switch response.body {
        case .data(let data):
            mhdResponse = data.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
            }
            phase = .sending
        case .stream(let writer):
            mhdResponse = MHD_create_response_from_callback(bindery_mhd_size_unknown(), HTTPServer.streamBlockBytes, streamReader,
                                                            Unmanaged.passUnretained(self).toOpaque(), nil)
            if isDraining { writer.close() }
            writer.subscription.onReady = { [weak self] in self?.wake() }
            phase = .streaming(writer, suspended: false)
        }
        guard let mhdResponse else {
            response.discard()
            phase = .sending
            return .NO
        }
        for (name, value) in response.headers { MHD_add_response_header(mhdResponse, name, value) }
        let result = MHD_queue_response(pointer, UInt32(response.status), mhdResponse)
        MHD_destroy_response(mhdResponse)
        return result
    }

    private func header(_ name: String) -> String? {
        MHD_lookup_connection_value(pointer, .HEADER_KIND, name).map { String(cString: $0) }
    }

    /// The request's headers or query arguments named in `names` (looked up, not all copied).
    private func values(_ kind: MHD_ValueKind, _ names: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            if let value = MHD_lookup_connection_value(pointer, kind, name) { values[name] = String(cString: value) }
        }
        return values
    }
}

/// The stream's reader: `cls` is its `Connection`, which outlives the response
/// (libmicrohttpd destroys responses before it reports the connection closed).
private let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return bindery_mhd_reader_end_with_error() }
    return Unmanaged<Connection>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, max: max)
}
