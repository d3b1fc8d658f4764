import Bindery
import Foundation

/// Protocol v1: maps each route of `APIRoute`'s table to the runtime.
struct APIRouter: Sendable {
    let application: Application
    let streams: StreamAdmission
    /// How fast each client may create sessions.
    let creations: SessionCreationRate
    let configuration: ServerConfiguration
    let telemetry: Telemetry
    /// The browsers' sign-ins, for the inputs that sign their browser in or out (`BrowserSignIn`).
    var signIns: SignIns? = nil
    /// What a development server tells pages about the app itself: every stream starts with its standing state.
    var development: DevelopmentNotices? = nil

    func respond(to request: Request, segments: ArraySlice<String>) throws -> Answer {
        let path = Array(segments)
        // /api/<vm>/<sid>/…: `operation` on the session the route is about, once
        // its name and id have their form (after the method: a method the route
        // does not have is 405 whatever the id), found live or in the store, and
        // reachable by this request.
        func onSession<T>(
            _ operation: @escaping @Sendable (Session, @escaping @Sendable (Result<T, BinderyError>) -> Void) -> Void,
            answer: @escaping @Sendable (Result<T, BinderyError>) -> Response
        ) throws -> Answer {
            try validate(viewModel: path[0], id: path[1], request)
            let (viewModel, id, credentials) = (path[0], path[1], Credentials(request))
            // A live session, nearly always: found here, and a stranger is answered at once.
            if let session = try application.liveSession(viewModel, id: id) {
                try Self.reachable(session, by: credentials)
                return .later { [application] reply in
                    operation(session) { result in
                        guard case .failure(let error) = result, error.code == .retired else { return reply(answer(result)) }
                        Self.withSession(application, viewModel, id: id, credentials: credentials, operation) { reply(answer($0)) }
                    }
                }
            }
            return .later { [application] reply in
                Self.withSession(application, viewModel, id: id, credentials: credentials, operation) { reply(answer($0)) }
            }
        }

        guard let match = request.apiRoute else { throw HTTPError.notFound("no API route \(request.path)") }
        let route = match.route
        switch route {
        case .catalog:
            try allow(request, route.methods)
            return catalog { .json($0.json) }
        case .openAPI:
            try allow(request, route.methods)
            return catalog { [uploads = configuration.uploads, development = configuration.runtime.recordsTranscripts] in
                .json(OpenAPI.document(for: $0, uploads: uploads, development: development))
            }
        case .streams:
            try allow(request, route.methods)
            return try multiplexedStream(request)
        case .create:
            let name = path[0]
            try validate(viewModel: name, id: nil, request)
            guard application.isRegistered(name) else {
                throw HTTPError(BinderyError(.unknownViewModel, "no ViewModel named '\(name)'"))
            }
            try allow(request, route.methods)
            try checkJSONBody(request)
            let preferredID = try proxysSessionID(request)
            let client = request.provenance.client
            if let wait = creations.take(for: client) {
                let seconds = max(1, Int(ceil(Double(wait.nanoseconds) / 1e9)))
                throw refused(
                    HTTPError(
                        status: 429, code: "rate_limited",
                        message:
                            "this client creates sessions faster than \(creations.burst) at once and \(Self.format(creations.perSecond)) a second; try again in \(seconds) s",
                        headers: [("Retry-After", "\(seconds)")]), request, .sessionRate)
            }
            let owner = request.identity.map { SessionOwner.identity($0.id) } ?? request.browser.map(SessionOwner.browser)
            return .later { [application, telemetry, body = request.body, identity = request.identity] reply in
                application.createSession(name, parameters: body, client: client, owner: owner, identity: identity, preferredID: preferredID) { created in
                    if case .failure(let error) = created, error.code == .tooManySessions {
                        telemetry.refused(.clientSessionLimit, client: client, detail: error.message)
                    }
                    guard case .success(let session) = created else { return reply(Self.response(created)) }
                    session.snapshot { snapshot in
                        reply(Self.response(snapshot) { .json($0.json, status: 201, headers: [("Location", "/api/\(name)/\(session.id)")]) })
                    }
                }
            }
        case .session:
            // A shared ViewModel's session is everyone's: one client must not end
            // it for all (and in a cluster it would end one node's replica only).
            let isShared = application.isShared(path[0])
            if isShared, request.method == "DELETE" {
                throw HTTPError(
                    status: 405, code: "method_not_allowed",
                    message: "a shared ViewModel's session is everyone's: it cannot be deleted (it ends when it idles out)",
                    headers: [("Allow", "GET, HEAD")])
            }
            try allow(request, isShared ? route.methods.filter { $0 != "DELETE" } : route.methods)
            if request.method == "DELETE" {
                return try onSession(
                    { [application] session, done in
                        application.disposeSession(session)
                        done(.success(()))
                    }, answer: { Self.response($0) })
            }
            if request.wantsEventStream { return try stream(request, viewModel: path[0], id: path[1]) }
            return try onSession({ session, done in session.snapshot(done) }, answer: { Self.response($0) { .json($0.json) } })
        case .events:
            try allow(request, route.methods)
            return try stream(request, viewModel: path[0], id: path[1])
        case .output:
            try allow(request, route.methods)
            let name = path[3]
            return try onSession(
                { session, done in session.value(ofOutput: name, completion: done) },
                answer: { value in
                    Self.response(value) { json in
                        // The output exists; it has nothing to show yet.
                        guard let json else { return .empty(status: 204) }
                        return .json(json)
                    }
                })
        case .test:
            try allow(request, route.methods)
            guard configuration.runtime.recordsTranscripts else {
                throw HTTPError.notFound("a session's test is made in development only (--development)")
            }
            let (viewModel, id) = (path[0], path[1])
            return try onSession(
                { session, done in session.transcript(done) },
                answer: { result in
                    switch result {
                    case .success(let transcript?):
                        return Response(
                            status: 200,
                            headers: [
                                ("Content-Type", "text/x-swift; charset=utf-8"), ("Cache-Control", "no-store"),
                                ("Content-Disposition", "attachment; filename=\"\(viewModel)-\(id.prefix(8))-Tests.swift\""),
                            ],
                            body: .data(Data(RegressionTest.swift(for: transcript, viewModel: viewModel, session: id).utf8)))
                    case .success(nil):
                        return HTTPError.notFound("this session kept no transcript (a shared ViewModel's replica, or made before --development)").response
                    case .failure(let error):
                        return HTTPError(error).response
                    }
                })
        case .input:
            try allow(request, route.methods)
            let name = path[3]
            // An upload's body was its file: the input gets the token that names it.
            let body = request.upload.map(UploadPayload.json(token:)) ?? request.body
            if request.upload == nil { try checkJSONBody(request) }
            let key = try Self.inputKey(request)
            let browser = BrowserOfInput(request: request, signIns: signIns, application: application, telemetry: telemetry)
            return try onSession(
                { session, done in
                    session.send(input: name, payload: body, key: key) { result in
                        // What the input asked of its browser is done, durably, before its answer says so.
                        guard case .success(let snapshot) = result, let intent = snapshot.browser else { return done(result.map { ($0, []) }) }
                        browser.apply(intent) { done($0.map { (snapshot, $0) }) }
                    }
                },
                answer: { answered in
                    Self.response(answered) { snapshot, headers in
                        .json(snapshot.json, headers: Self.answerHeaders(snapshot, headers))
                    }
                })
        }
    }

    /// An input's answer's headers: a repeat's mark, its browser's cookie, where its page goes.
    private static func answerHeaders(_ snapshot: Snapshot, _ browser: [(String, String)]) -> [(String, String)] {
        // Most answers have none of them: no array made for those.
        guard snapshot.isReplay || snapshot.location != nil else { return browser }
        var headers = snapshot.isReplay ? replayed : []
        headers += browser
        if let location = snapshot.location { headers.append(("Bindery-Location", location)) }
        return headers
    }

    /// What a repeated input's answer says (`Idempotency-Key`): it was not applied again.
    private static let replayed = [("Idempotent-Replayed", "true")]

    /// The client's key of an input (`Idempotency-Key`, a bare token or a
    /// structured-field string in quotes), if it sent one: 1–128 visible ASCII
    /// characters without quotes or backslashes; anything else, or the header
    /// twice, is 400 `invalid_idempotency_key`.
    static func inputKey(_ request: Request) throws -> String? {
        guard var key = request.header("idempotency-key") else { return nil }
        func refuse(_ why: String) -> HTTPError { HTTPError(status: 400, code: "invalid_idempotency_key", message: why) }
        if request.repeatedHeaders.contains("idempotency-key") { throw refuse("Idempotency-Key came more than once") }
        if key.count >= 2, key.hasPrefix("\""), key.hasSuffix("\"") { key = String(key.dropFirst().dropLast()) }
        guard (1...128).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C }) else {
            throw refuse("an Idempotency-Key is 1 to 128 visible ASCII characters, without quotes or backslashes")
        }
        return key
    }

    /// The catalog, probed in a turn of its own the first time.
    private func catalog(_ response: @escaping @Sendable (Catalog) -> Response) -> Answer {
        .later { [application] reply in application.catalog { reply(response($0)) } }
    }

    /// The response for a runtime outcome: `success` for a value, the JSON error otherwise.
    private static func response<T>(_ result: Result<T, BinderyError>, success: (T) -> Response = { _ in .empty(status: 204) }) -> Response {
        switch result {
        case .success(let value): return success(value)
        case .failure(let error): return HTTPError(error).response
        }
    }

    private func allow(_ request: Request, _ methods: [String]) throws {
        let allowed = methods.contains("GET") ? methods + ["HEAD"] : methods
        guard allowed.contains(request.method) else { throw HTTPError.methodNotAllowed(request.method, allowed: allowed) }
    }

    /// A ViewModel name and session id that can be ones, before they go anywhere.
    private func validate(viewModel: String, id: String?, _ request: Request) throws {
        if !Application.isValidName(viewModel) {
            throw refused(HTTPError(status: 400, code: "invalid_name", message: "a ViewModel name is 1–64 ASCII letters, digits, - or _"), request)
        }
        if let id, !SessionID.isValid(id) {
            throw refused(
                HTTPError(status: 400, code: "invalid_session_id", message: "a session id is 22 ASCII letters, digits, - or _, or 32 lowercase hex digits"),
                request)
        }
    }

    /// The id a cluster's proxy names for the session `request` creates
    /// (`X-Bindery-Session-Id`), if the server takes ids from its trusted
    /// proxies and this request came through one; nil otherwise. An id that
    /// is not of the proxy's form is refused, since only a proxy that is not
    /// nginx's `$request_id` could send it.
    private func proxysSessionID(_ request: Request) throws -> String? {
        guard configuration.sessionIDFromProxy, request.provenance.isTrustedProxy, let id = request.header("x-bindery-session-id") else {
            return nil
        }
        guard SessionID.isFromProxy(id) else {
            throw refused(
                HTTPError(status: 400, code: "invalid_session_id", message: "X-Bindery-Session-Id from the proxy is not 32 lowercase hex digits"),
                request)
        }
        return id
    }

    /// `session` if `request` may reach it: a session with an owner answers
    /// only requests that present it (its browser's cookie, its identity);
    /// to anyone else it does not exist.
    private static func reachable(_ session: Session, by request: Credentials) throws {
        let reaches: Bool
        switch session.owner {
        case nil: reaches = true
        case .browser(let token): reaches = request.browser.map { Self.equalInConstantTime($0, token) } ?? false
        case .identity(let id): reaches = request.identity == id
        }
        guard reaches else { throw BinderyError(.unknownSession, "no session '\(session.id)' of \(session.viewModelName)") }
    }

    /// Finds session `id` of `viewModel`, live or, where the app keeps its
    /// sessions, made again from the store (`Application.findSession`), lets
    /// `credentials` reach it, and runs `operation` on it; a session let go to
    /// its store just as the request reached it is found again, once.
    static func withSession<T>(
        _ application: Application, _ viewModel: String, id: String, credentials: Credentials, retrying: Bool = true,
        _ operation: @escaping @Sendable (Session, @escaping @Sendable (Result<T, BinderyError>) -> Void) -> Void,
        completion: @escaping @Sendable (Result<T, BinderyError>) -> Void
    ) {
        application.findSession(viewModel, id: id) { found in
            let session: Session
            do {
                session = try found.get()
                try reachable(session, by: credentials)
            } catch {
                return completion(.failure(error as? BinderyError ?? BinderyError(.unknownSession, "\(error)")))
            }
            operation(session) { result in
                guard retrying, case .failure(let error) = result, error.code == .retired else { return completion(result) }
                withSession(application, viewModel, id: id, credentials: credentials, retrying: false, operation, completion: completion)
            }
        }
    }

    /// What a request presents to reach a session that has an owner.
    struct Credentials: Sendable {
        /// The browser's token from its cookie.
        let browser: String?
        /// The id of who asks, as the app's authentication said.
        let identity: String?

        init(_ request: Request) {
            browser = request.browser
            identity = request.identity?.id
        }

        init(browser: String?, identity: String?) {
            self.browser = browser
            self.identity = identity
        }
    }

    /// Whether `a` and `b` are equal, in a time that does not tell how much of them is.
    private static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let (a, b) = (Array(a.utf8), Array(b.utf8))
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private func refused(_ error: HTTPError, _ request: Request, _ reason: Refusal = .invalidSession) -> HTTPError {
        telemetry.refused(reason, client: request.provenance.client, detail: error.message)
        return error
    }

    /// `10`, `0.5`: a rate as a person reads it.
    private static func format(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(rate)
    }

    private func checkJSONBody(_ request: Request) throws {
        guard !request.body.isEmpty, let type = request.header("content-type") else { return }
        let mediaType = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard mediaType == "application/json" || mediaType.hasSuffix("+json") else {
            throw HTTPError(status: 415, code: "unsupported_media_type", message: "send the payload as JSON with Content-Type: application/json (got \(type))")
        }
    }

    /// Where session `id` of ViewModel `viewModel` is served.
    @Sendable static func sessionURL(viewModel: String, id: String) -> String { "/api/\(viewModel)/\(id)" }

    /// `/api/streams` carries several sessions' streams, so no ViewModel may be called that.
    static let multiplexedStreams = "streams"

    /// The most sessions one multiplexed stream carries.
    static let maxSessionsPerStream = 64

    /// `GET /api/streams?sessions=<vm>/<sid>[@<lastEventId>],…`: the streams of
    /// several sessions on one connection, each item led by its session's line
    /// (one browser's tabs share it, through a SharedWorker).
    private func multiplexedStream(_ request: Request) throws -> Answer {
        struct Entry: Sendable {
            let path: String
            let viewModel: String
            let id: String
            let lastEventID: UInt64?
        }
        let list = request.query["sessions"] ?? ""
        var entries: [Entry] = []
        for item in list.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
            let path = parts[0].split(separator: "/", omittingEmptySubsequences: false)
            let lastEventID = parts.count == 2 ? UInt64(parts[1]) : nil
            guard path.count == 2, parts.count == 1 || lastEventID != nil else {
                throw HTTPError(
                    status: 400, code: "invalid_sessions",
                    message: "sessions: expected <viewModel>/<sessionId>[@<lastEventId>], separated by commas")
            }
            try validate(viewModel: String(path[0]), id: String(path[1]), request)
            // A session listed twice is streamed once, from its first entry.
            guard !entries.contains(where: { $0.path == parts[0] }) else { continue }
            entries.append(Entry(path: String(parts[0]), viewModel: String(path[0]), id: String(path[1]), lastEventID: lastEventID))
        }
        guard !entries.isEmpty else {
            throw HTTPError(status: 400, code: "invalid_sessions", message: "name the sessions to stream: ?sessions=<viewModel>/<sessionId>[@<lastEventId>],…")
        }
        guard entries.count <= Self.maxSessionsPerStream else {
            throw HTTPError(
                status: 400, code: "invalid_sessions", message: "one stream carries at most \(Self.maxSessionsPerStream) sessions (got \(entries.count))")
        }
        guard let admission = streams.admit() else {
            throw HTTPError(
                status: 503, code: "limit_reached", message: "the server already has \(configuration.maxStreams) streams open", headers: [("Retry-After", "1")])
        }
        let retry = configuration.retryMilliseconds
        // Each session answers in its own turn; the last to answer replies.
        let outcomes = Locked<(results: [Result<Subscription, BinderyError>?], waiting: Int)>((Array(repeating: nil, count: entries.count), entries.count))
        return .later { [application, entries, telemetry, development, credentials = Credentials(request)] reply in
            @Sendable func settle(_ index: Int, _ result: Result<Subscription, BinderyError>) {
                let all = outcomes.withLock { state -> [Result<Subscription, BinderyError>]? in
                    state.results[index] = result
                    state.waiting -= 1
                    return state.waiting == 0 ? state.results.map { $0! } : nil
                }
                guard let all else { return }
                var subscriptions: [Subscription] = []
                var preamble = Self.preamble(application, development)
                for (entry, result) in zip(entries, all) {
                    switch result {
                    case .success(let subscription):
                        subscriptions.append(subscription)
                    case .failure(let error):
                        let gone = error.code == .unknownSession || error.code == .unknownViewModel
                        preamble += ServerSentEvents.refused(entry.path, gone: gone, json: HTTPError(error).body)
                    }
                }
                reply(
                    .eventStream(
                        EventStream(
                            multiplexing: entries.map(\.path), subscriptions: subscriptions, preamble: preamble,
                            admission: admission, retryMilliseconds: retry, telemetry: telemetry)))
            }
            for (index, entry) in entries.enumerated() {
                Self.withSession(
                    application, entry.viewModel, id: entry.id, credentials: credentials,
                    { session, done in
                        session.subscribe(lastEventID: entry.lastEventID, itemPrefix: ServerSentEvents.session(entry.path), completion: done)
                    }, completion: { settle(index, $0) })
            }
        }
    }

    /// What a new stream says first about the server's data: that it may be
    /// behind (`bindery.stale`), while the application says it is not ready
    /// (a cluster's node away from its database); nothing otherwise.
    static func staleness(_ application: Application) -> [UInt8] {
        application.readiness.problem == nil ? [] : ServerSentEvents.stale(true)
    }

    /// What every stream says first: its server's staleness, and in development the standing word about the app.
    static func preamble(_ application: Application, _ development: DevelopmentNotices?) -> [UInt8] {
        staleness(application) + (development?.preamble ?? [])
    }

    private func stream(_ request: Request, viewModel: String, id: String) throws -> Answer {
        try validate(viewModel: viewModel, id: id, request)
        // The header is what EventSource sends on its own reconnects; the query
        // argument lets a client that opens a new EventSource resume too.
        let lastEventID = (request.header("last-event-id") ?? request.query["lastEventId"])
            .flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
        guard let admission = streams.admit() else {
            throw HTTPError(
                status: 503, code: "limit_reached", message: "the server already has \(configuration.maxStreams) streams open", headers: [("Retry-After", "1")])
        }
        let retry = configuration.retryMilliseconds
        return .later { [application, telemetry, development, credentials = Credentials(request)] reply in
            Self.withSession(
                application, viewModel, id: id, credentials: credentials,
                { session, done in session.subscribe(lastEventID: lastEventID, completion: done) }
            ) { subscribed in
                switch subscribed {
                case .success(let subscription):
                    reply(
                        .eventStream(
                            EventStream(
                                session: "\(viewModel)/\(id)", subscription: subscription, preamble: Self.preamble(application, development),
                                admission: admission, retryMilliseconds: retry, telemetry: telemetry)))
                case .failure(let error):
                    admission.release()
                    reply(HTTPError(error).response)
                }
            }
        }
    }
}
