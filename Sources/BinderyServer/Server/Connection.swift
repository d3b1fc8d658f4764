import Bindery
import CMicroHTTPD
import Foundation

/// One libmicrohttpd connection and the request it is on: the HTTP phases.
/// It holds the connection's `ConnectionSleep`, the one right to suspend and
/// resume it, while a session makes an answer; while a stream is the answer,
/// the stream holds it (`EventStream`), and gives it back when the request ends.
///
/// A request goes `idle → receiving → answering → answered → sending` (or
/// `→ streaming`) and back to `idle` for the next one on a keep-alive
/// connection; the connection is `done` when libmicrohttpd closes it.
/// `answering` (a session makes the answer) is always suspended. Resuming
/// happens only from a suspended phase, once per suspension, and never after
/// `done`; and finishing a request or closing the connection gives back
/// whatever the phase holds (an answer never sent, a stream, which it detaches).
///
/// Threading: libmicrohttpd calls in on the connection's daemon thread;
/// sessions answer from their turns; the server drains it from the stopping
/// thread. One lock orders them all (a stream's lock comes after it).
/// libmicrohttpd is called with it held, which is safe because libmicrohttpd
/// never holds a lock of its own while it calls us, and it means a resume can
/// never race the connection's closing (`MHD_CONNECTION_NOTIFY_CLOSED` takes
/// the lock before the memory goes).
final class Connection: @unchecked Sendable {
    private enum Phase {
        case idle
        case receiving(RequestBody)
        case answering
        case answered(Response)
        case sending
        /// `State.stream` is the answer, and holds the connection's sleep.
        case streaming
        case done
    }

    /// What the lock guards.
    private struct State: ~Copyable {
        /// The stream, exactly while `streaming`.
        var stream: EventStream?
        /// The right to suspend and resume the connection: here except while
        /// `streaming` (the stream holds it); dropped once the connection is `done`.
        var sleep: ConnectionSleep?
        var phase = Phase.idle
        var isDraining: Bool
        /// When the current request's first byte arrived (its log line's duration).
        var started = ContinuousClock.now
        /// The current request's method and target, as its first call gave them.
        var method = ""
        var url = ""
        /// The current request's route, once it is routed (its log line and metrics).
        var route: RouteLabel?
        /// The socket the hang-up watcher watches while a stream is open.
        var watched: Int32?
        /// When the connection is closed unless its request has moved on: the
        /// headers of its next request, or the body of the current one.
        var deadline: Deadline?
        /// What the connection's requests are answered, if it was over a limit when it opened.
        var refusal: HTTPError?
        /// The stream's `awakeReads` and the bytes its socket held unacknowledged
        /// as the sweep last saw them, and since when neither moved.
        var progress: (reads: UInt32?, held: Int32, since: ContinuousClock.Instant)
        /// The socket was shut down: libmicrohttpd closes the connection at its next look.
        var isShutDown = false
        /// The token of the current request's upload (`UploadedFiles`), from its body's end
        /// until the request is done: then its file goes, unless the ViewModel moved it.
        var uploadToken: String?
    }

    /// A time by which the request must have moved on, and what it is if it has not.
    struct Deadline {
        let at: ContinuousClock.Instant
        let reason: Refusal
    }

    /// What a sweep did to the connection.
    enum Swept {
        /// Its headers or body did not arrive in time: closed.
        case timedOut(Refusal)
        /// Its stream's client took nothing for too long while bytes waited: closed.
        case stalled
    }

    /// First in the object, with its header: a wake reads both.
    private let state: Locked<State>
    /// The libmicrohttpd connection; valid until `closed`.
    private let pointer: OpaquePointer
    private unowned let server: HTTPServer

    /// The connection's number in its server's table (never reused).
    let serial: UInt64
    /// The address of the socket's peer.
    let peer: String
    /// Whether the connection counts against its client's share (it was not refused, nor from a trusted proxy).
    let countsAgainstPeer: Bool
    /// Whether it counts against the server's connections (it was not refused).
    let isAdmitted: Bool
    /// The connection's socket, libmicrohttpd's: valid until `closed`.
    private let socket: Int32
    /// The current request's target as seen before it was decoded (`RequestTarget`).
    /// Unchecked and unlocked: written by `requestLine` and read by `handle`'s first call, both
    /// on the connection's daemon thread, one after the other.
    @exclusivity(unchecked) private var target: RequestTarget.Scan?

    /// A connection libmicrohttpd just accepted from `peer`; `refusal` answers
    /// its first request (it was over a limit), whose headers then get `refusalDeadline`.
    init(
        _ pointer: OpaquePointer, server: HTTPServer, serial: UInt64, peer: String, draining: Bool, refusal: HTTPError?,
        countsAgainstPeer: Bool
    ) {
        self.pointer = pointer
        self.serial = serial
        self.server = server
        self.peer = peer
        self.countsAgainstPeer = countsAgainstPeer
        isAdmitted = refusal == nil
        socket = bindery_mhd_connection_fd(pointer)
        let now = ContinuousClock.now
        var state = State(isDraining: draining, progress: (nil, 0, now))
        state.refusal = refusal
        state.sleep = ConnectionSleep(pointer)
        let wait = refusal == nil ? server.configuration.headerTimeout : min(server.configuration.headerTimeout, HTTPServer.refusalDeadline)
        state.deadline = Deadline(at: now + wait, reason: .headerTimeout)
        self.state = Locked(state)
    }

    /// The text address of a connection's peer, or "" if libmicrohttpd does not know it.
    static func peer(of pointer: OpaquePointer) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        bindery_mhd_client_address(pointer, &text, socklen_t(text.count))
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A request line arrived: its target, before libmicrohttpd decodes it.
    func requestLine(target: UnsafePointer<CChar>) {
        // Unlocked, as `handle` reads it: both on the daemon's thread, in its callbacks.
        assertIn(.libmicrohttpd, "a request line's scan")
        self.target = RequestTarget.scan(target)
    }

    /// libmicrohttpd's access handler: headers, then body pieces, then the end
    /// of the request (and once more after an answer that came later). The
    /// method and target are made `String`s on the first call only, the
    /// version when the request is routed: three conversions a request, not nine.
    func handle(
        method cMethod: UnsafePointer<CChar>, url cURL: UnsafePointer<CChar>, version cVersion: UnsafePointer<CChar>,
        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>, isFirstCall: Bool
    ) -> MHD_Result {
        assertIn(.libmicrohttpd, "a request's handling")
        /// What to do once the lock is released.
        enum Next {
            case result(MHD_Result)
            /// Make the request of `body` (of `method` to `url`) and route it, then take the lock again to answer it.
            case route(RequestBody, method: String, url: String)
            /// Add the piece of the body that came to `body` (memory, or an upload's file).
            case append(RequestBody)
        }
        let next = locked { state -> Next in
            if isFirstCall {
                state.method = String(cString: cMethod)
                state.url = String(cString: cURL)
            }
            let method = state.method, url = state.url
            if isFirstCall {
                server.requestsInFlight.begin()
                state.started = .now
                state.route = nil
                state.phase = .receiving(RequestBody(limit: server.configuration.maxBodyBytes))
                state.deadline = Deadline(at: state.started + server.configuration.bodyTimeout, reason: .bodyTimeout)
                if let refusal = state.refusal {
                    return .result(queue(refusal.closing, in: &state, method: method, path: url))
                }
                if let problem = target?.problem
                    ?? target.flatMap({ RequestTarget.endsBeforeVersion($0.end, version: cVersion) ? nil : RequestTarget.nulProblem })
                {
                    let refusal = HTTPError(status: 400, code: "invalid_url", message: problem)
                    return .result(queue(server.refused(refusal, reason: .invalidURL, client: peer).closing, in: &state, method: method, path: url))
                }
                if !server.uploads.isEmpty, method == "POST", let rule = server.uploads.rule(forPath: cURL) {
                    switch startUpload(rule) {
                    case .success(let body):
                        if let body { state.phase = .receiving(body) }
                        if body != nil { return .result(.YES) }
                    case .failure(let refusal):
                        return .result(queue(refusal.closing, in: &state, method: method, path: url))
                    }
                }
                if let length = header("Content-Length").flatMap(Int.init), length > server.configuration.maxBodyBytes {
                    return .result(queue(server.tooLarge.closing, in: &state, method: method, path: url))
                }
                return .result(.YES)
            }
            if uploadSize.pointee > 0 {
                if case .receiving(let body) = state.phase, upload != nil { return .append(body) }
                uploadSize.pointee = 0  // dropped after an early answer
                return .result(.YES)
            }
            switch state.phase {
            case .answered(let response):
                return .result(queue(response, in: &state, method: method, path: url))
            case .receiving(let body):
                if body.isTooLarge {
                    let refusal = body.file == nil ? server.tooLarge : server.uploads.tooLarge(url)
                    return .result(queue(refusal.closing, in: &state, method: method, path: url))
                }
                if state.isDraining {
                    // The process is still up while it drains: only readiness says no.
                    let answer = url == "/healthz" ? Router.healthy : server.stopping.closing
                    return .result(queue(answer, in: &state, method: method, path: url))
                }
                return .route(body, method: method, url: url)
            case .idle, .answering, .sending, .streaming, .done:
                return .result(.YES)
            }
        }
        let body: RequestBody, method: String, url: String
        switch next {
        case .result(let result):
            return result
        case .append(let receiving):
            // Outside the lock: an upload's piece is a write to its file. Only this thread
            // touches the body until the request ends, and the request ends on this thread.
            if let upload { receiving.append(UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee)) }
            uploadSize.pointee = 0  // taken
            return .YES
        case .route(let receiving, let requestMethod, let requestURL):
            (body, method, url) = (receiving, requestMethod, requestURL)
        }
        // Outside the lock from here: the request is made (libmicrohttpd's lookups, an upload's
        // file closed), routed (a file read, a page rendered, the app asked who this is), and only
        // then is the lock taken again to answer or to wait. The request stays `receiving`
        // meanwhile; only this thread moves it on.
        let (headers, repeated) = requestHeaders()
        // A page reads any argument (its roots' sessions, data-bindery-query); the API only its own.
        let query = strncmp(cURL, "/api/", 5) == 0 ? values(.GET_ARGUMENT_KIND, Request.queryNames) : all(.GET_ARGUMENT_KIND, lowercased: false)
        var request = Request(method: method, path: url, headers: headers, body: body.data, query: query)
        if let file = body.file {
            guard let upload = file.finish() else {
                return locked { queue(UploadReceiving.failed(file.failure).closing, in: &$0, method: method, path: url) }
            }
            request.upload = UploadedFiles.shared.register(upload)
        }
        request.version = String(cString: cVersion)
        request.repeatedHeaders = repeated
        request.peer = peer
        if let token = BrowserCookie.name.withCString({ MHD_lookup_connection_value(pointer, .COOKIE_KIND, $0) }).map({ String(cString: $0) }),
            BrowserCookie.isValid(token)
        {
            request.browser = token
        }
        if server.configuration.readsSignInCookie {
            for name in [SignIns.secureCookieName, SignIns.cookieName] where request.signInToken == nil {
                request.signInToken = name.withCString { MHD_lookup_connection_value(pointer, .COOKIE_KIND, $0) }.map { String(cString: $0) }
            }
        }
        if server.configuration.authenticate != nil { request.everything = (all(.HEADER_KIND, lowercased: true), all(.COOKIE_KIND, lowercased: false)) }
        let route = RouteLabel(url, match: request.apiRoute)
        let (upload, routed) = (request.upload, server.route(request))
        switch routed {
        case .now(let response):
            return locked { state in
                (state.route, state.uploadToken) = (route, upload)
                return queue(response, in: &state, method: method, path: url)
            }
        case .later(let work):
            locked { state in
                (state.route, state.uploadToken) = (route, upload)
                state.deadline = nil
                state.phase = .answering
                state.sleep?.suspend()
            }
            // Outside the lock: the answer may come at once, on this thread.
            work { [self] response in answer(response) }
            return .YES
        }
    }

    /// Runs `body` holding the connection's lock, which is taken before a stream's, never after
    /// (checked in debug builds), and marks the thread as holding it: what must not run under it
    /// (routing, a file's read) can check.
    @inline(__always)
    private func locked<Result: ~Copyable>(_ body: (inout State) throws -> Result) rethrows -> Result {
        assertNotIn(.streamLock, "taking a connection's lock")
        #if DEBUG
            return try state.withLock { state in try marking(.connectionLock) { try body(&state) } }
        #else
            return try state.withLock(body)
        #endif
    }

    /// The answer a session made: queued when libmicrohttpd calls `handle` again.
    private func answer(_ response: Response) {
        let discarded = locked { state -> Bool in
            guard case .answering = state.phase else { return true }
            state.phase = .answered(response)
            state.sleep?.resume()
            return false
        }
        if discarded { response.discard() }
    }

    /// A keep-alive comment is due on the stream, if this connection is one.
    func heartbeat() {
        locked { $0.stream?.heartbeat() }
    }

    /// Tells the stream, if this connection is one, `bytes` of its own (`EventStream.tell`).
    func tell(_ bytes: [UInt8]) {
        locked { $0.stream?.tell(bytes) }
    }

    /// The client hung up (the watcher saw it): a stream ends now rather than at
    /// its next write, and gives its place back.
    func peerHungUp() {
        locked { $0.stream?.close(.clientLeft) }
    }

    /// The server stops: streams end now (clients reconnect later), the next
    /// request gets a 503, and a request still waiting for its session gets
    /// `answeringWith` if given (after the grace period).
    func drain(answeringWith response: Response? = nil) {
        locked { state in
            state.isDraining = true
            switch state.phase {
            case .streaming:
                state.stream?.close(.shutdown)
            case .answering:
                guard let response else { return }
                state.phase = .answered(response)
                state.sleep?.resume()
            case .idle, .receiving, .answered, .sending, .done:
                break
            }
        }
    }

    /// Closes the connection if its request's deadline passed, or if its
    /// stream's client took nothing for `stallTimeout` while bytes waited for
    /// it: Bindery's (libmicrohttpd did not read the stream, awake, because the
    /// socket takes no more) or the kernel's (bytes sent and never
    /// acknowledged, held as long as the client takes nothing, even once
    /// Bindery has nothing more to send). The socket is shut down, which
    /// libmicrohttpd sees at its next look and closes the connection (it never
    /// calls a stalled stream's reader, so closing the stream alone would not
    /// end it); a stalled stream's close is a reset, so that what the kernel
    /// holds for it is freed at once.
    func sweep(now: ContinuousClock.Instant, stallTimeout: Duration) -> Swept? {
        locked { state -> Swept? in
            guard !state.isShutDown else { return nil }
            if let deadline = state.deadline, now >= deadline.at {
                shutDown(&state)
                return .timedOut(deadline.reason)
            }
            guard case .streaming = state.phase, let stream = state.stream else {
                state.progress = (nil, 0, now)
                return nil
            }
            let reads = stream.awakeReads
            let held = bindery_socket_unacknowledged(socket)
            let waiting = reads != nil || held > 0
            // Moving on: read again, or the client acknowledged some of what the kernel held.
            let moved = reads != state.progress.reads || held < state.progress.held
            state.progress.reads = reads
            state.progress.held = held
            guard waiting, !moved else {
                state.progress.since = now
                return nil
            }
            guard now - state.progress.since >= stallTimeout else { return nil }
            stream.close(.stalled)
            _ = bindery_socket_reset_on_close(socket)
            shutDown(&state)
            return .stalled
        }
    }

    private func shutDown(_ state: inout State) {
        state.isShutDown = true
        state.deadline = nil
        // The descriptor is libmicrohttpd's until `closed`, which takes this lock first.
        if socket != bindery_mhd_invalid_socket() { Platform.shutDown(socket) }
    }

    /// libmicrohttpd finished the request (sent, failed or aborted): give back what it held.
    func requestCompleted() {
        assertIn(.libmicrohttpd, "a request's completion")
        locked { finishRequest(&$0, next: .idle) }
    }

    /// libmicrohttpd closed the connection: nothing touches it again.
    func closed() {
        assertIn(.libmicrohttpd, "a connection's closing")
        locked { state in
            finishRequest(&state, next: .done)
            state.deadline = nil
        }
    }

    private func finishRequest(_ state: inout State, next: Phase) {
        // The next request's headers, kept-alive or not, are due within the header timeout.
        state.deadline = Deadline(at: .now + server.configuration.headerTimeout, reason: .headerTimeout)
        // An upload's file goes with its request: answered (unless moved), refused, or cut off.
        if let token = state.uploadToken {
            UploadedFiles.shared.finish(token)
            state.uploadToken = nil
        }
        if case .receiving(let body) = state.phase { body.file?.delete() }
        switch state.phase {
        case .idle, .done:
            if case .done = next {
                state.phase = .done
                state.sleep = nil
            }
            return
        case .answered(let response):
            response.discard()
        case .streaming:
            state.sleep = state.stream?.detach(state.isDraining ? .shutdown : .clientLeft)
            state.stream = nil
            if let fd = state.watched { server.hangups.unwatch(fd: fd) }
            state.watched = nil
        case .receiving, .answering, .sending:
            break
        }
        state.phase = next
        if case .done = next { state.sleep = nil }
        server.requestsInFlight.end()
    }

    private func queue(_ response: Response, in state: inout State, method: String, path: String) -> MHD_Result {
        state.deadline = nil
        let route = state.route ?? RouteLabel(path)
        server.telemetry.responded(method: method, route: route, status: response.status, since: state.started)
        if response.status >= 400, method == "POST", case .data(let body) = response.body, route.inputViewModel != nil {
            server.telemetry.inputRefused(route, status: response.status, body: body)
        }
        let mhdResponse: OpaquePointer?
        switch response.body {
        case .data(let data):
            mhdResponse = data.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
            }
            state.phase = .sending
        case .stream(let stream):
            mhdResponse = stream.response()
            if state.isDraining { stream.close(.shutdown) }
            stream.attach(taking: state.sleep.take()!)
            let fd = bindery_mhd_connection_fd(pointer)
            if fd != bindery_mhd_invalid_socket() {
                server.hangups.watch(fd: fd, serial: serial)
                state.watched = fd
                // What the kernel may hold for a client that stops reading: bounded, not tcp_wmem's 4 MiB.
                _ = bindery_socket_bound_send_buffer(fd, Int32(server.configuration.streamSendBufferBytes))
            }
            state.phase = .streaming
            state.stream = stream
        }
        guard let mhdResponse else {
            response.discard()
            if let stream = state.stream { state.sleep = stream.detach(.clientLeft) }
            state.stream = nil
            if let fd = state.watched { server.hangups.unwatch(fd: fd) }
            state.watched = nil
            state.phase = .sending
            return .NO
        }
        for (name, value) in response.headers {
            _ = name.withCString { name in value.withCString { MHD_add_response_header(mhdResponse, name, $0) } }
        }
        let (name, value) = SecurityHeaders.everyResponse
        _ = MHD_add_response_header(
            mhdResponse, UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self),
            UnsafeRawPointer(value.utf8Start).assumingMemoryBound(to: CChar.self))
        let result = MHD_queue_response(pointer, UInt32(response.status), mhdResponse)
        MHD_destroy_response(mhdResponse)
        return result
    }

    /// The body of an upload to `rule`'s input, to its file; nil when the request is not
    /// an upload after all (no body type, or JSON: the input refuses it as a payload),
    /// or why it is refused before its body (its type, its declared length, no room).
    private func startUpload(_ rule: UploadRule) -> Result<RequestBody?, HTTPError> {
        guard let type = header("Content-Type"), !UploadReceiving.isJSON(type) else { return .success(nil) }
        guard rule.allows(type) else { return .failure(UploadReceiving.wrongType(type, rule)) }
        if let length = header("Content-Length").flatMap(Int.init), length > rule.maxBytes {
            return .failure(server.uploads.tooLarge(rule))
        }
        guard let file = UploadFile(directory: server.uploads.directory, filename: header("X-Bindery-Filename"), contentType: type) else {
            return .failure(UploadReceiving.failed(errno))
        }
        return .success(RequestBody(limit: rule.maxBytes, file: file))
    }

    private func header(_ name: String) -> String? {
        name.withCString { MHD_lookup_connection_value(pointer, .HEADER_KIND, $0) }.map { String(cString: $0) }
    }

    /// The headers routes read (`Request.headerNames`), and the names of those
    /// that came more than once: one pass over the request's headers.
    private func requestHeaders() -> ([String: String], [String]) {
        var collected = CollectedHeaders()
        _ = withUnsafeMutablePointer(to: &collected) { MHD_get_connection_values(pointer, .HEADER_KIND, collectHeader, $0) }
        return (collected.values, collected.repeated)
    }

    /// Every value of `kind`, by name (lower-cased if `lowercased`); of a name that came twice, the first.
    private func all(_ kind: MHD_ValueKind, lowercased: Bool) -> [String: String] {
        var collected = (values: [String: String](), lowercased: lowercased)
        _ = withUnsafeMutablePointer(to: &collected) { MHD_get_connection_values(pointer, kind, collectValue, $0) }
        return collected.values
    }

    /// The request's query arguments named in `names` (looked up, not all copied).
    private func values(_ kind: MHD_ValueKind, _ names: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            // withCString borrows the name's bytes; passing the String would copy them to the heap.
            if let value = name.withCString({ MHD_lookup_connection_value(pointer, kind, $0) }) { values[name] = String(cString: value) }
        }
        return values
    }
}

/// What `collectHeader` gathers.
private struct CollectedHeaders {
    var values: [String: String] = [:]
    var repeated: [String] = []
}

private let collectHeader: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let collected = cls.assumingMemoryBound(to: CollectedHeaders.self)
    // The first letter rules out most names before a comparison.
    let first = UInt8(bitPattern: key[0]) | 0x20
    for (index, cName) in Request.headerNames.enumerated()
    where cName.utf8Start[0] == first
        && strcasecmp(UnsafeRawPointer(cName.utf8Start).assumingMemoryBound(to: CChar.self), key) == 0
    {
        let name = Request.headerKeys[index]
        if collected.pointee.values[name] == nil {
            collected.pointee.values[name] = value.map { String(cString: $0) } ?? ""
        } else if !collected.pointee.repeated.contains(name) {
            collected.pointee.repeated.append(name)
        }
        break
    }
    return .YES
}

private let collectValue: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let collected = cls.assumingMemoryBound(to: (values: [String: String], lowercased: Bool).self)
    let name = collected.pointee.lowercased ? String(cString: key).lowercased() : String(cString: key)
    if collected.pointee.values[name] == nil { collected.pointee.values[name] = value.map { String(cString: $0) } ?? "" }
    return .YES
}
