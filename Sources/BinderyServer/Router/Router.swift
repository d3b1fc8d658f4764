import Bindery
import Foundation

/// The first stop of every request: `/api/…` to the API, everything else to `Public/`;
/// every failure becomes a JSON error with its status.
struct Router: Sendable {
    let edge: EdgePolicy
    let api: APIRouter
    let files: StaticFiles
    /// Pages at real URLs, tried before the files.
    let pages: [PageRoute]
    /// Renders an HTML page's bound roots with their values; nil: pages go as written.
    let firstPaint: FirstPaint?
    let client: ClientFiles
    /// What every HTML page gets besides its body (`SecurityHeaders.page`).
    let pageHeaders: [(String, String)]
    /// The app's authentication, which every `/api` request goes through first.
    let authenticate: Authenticator?
    /// The browsers' sign-ins, if the app keeps them: a sign-in cookie says who asks.
    let signIns: SignIns?
    /// Where a browser without a sign-in is sent from a page that needs one; nil: 401.
    let signInPage: String?
    /// Why the server is not ready (`/readyz`): it does not accept requests, or
    /// the application says why (`Readiness`); nil when it is.
    let whyNotReady: @Sendable () -> String?
    /// The metrics in Prometheus' text format (`/metrics`), nil when they are off.
    let metrics: @Sendable () -> Data?

    /// `/healthz`: the process is up (answered while draining too).
    static let healthy = Response.json(Data(#"{"status":"ok"}"#.utf8))

    func respond(to request: Request) -> Answer {
        assertNotIn(.connectionLock, "routing")
        var admitted = request
        do {
            try edge.admit(&admitted)
        } catch {
            return .now(HTTPError.response(for: error))
        }
        let request = admitted
        // Who asks, where it matters (the API, and pages, which make sessions): the app's
        // authentication, then the browser's sign-in; off libmicrohttpd's thread, as it may
        // await a database. A request without either goes on at once.
        guard needsIdentity(request) else { return route(request) }
        return .later { [self] reply in
            Task {
                var request = request
                do {
                    request.identity = try await identify(request)
                } catch let response as Refused {
                    return reply(response.response)
                } catch {
                    return reply(HTTPError.response(for: error))
                }
                switch route(request) {
                case .now(let response): reply(response)
                case .later(let work): work(reply)
                }
            }
        }
    }

    /// Whether `request` is one whose identity is looked for: an `/api` request or a page,
    /// when the app authenticates or the request carries a sign-in cookie.
    private func needsIdentity(_ request: Request) -> Bool {
        guard authenticate != nil || (signIns != nil && (request.signInToken != nil || request.header("authorization") != nil)) else { return false }
        if request.segments.first == "api" { return true }
        guard request.method == "GET" || request.method == "HEAD", request.segments.first != ClientFiles.prefix else { return false }
        // A page: a path without an extension (a page route, a folder) or an HTML file.
        let last = request.segments.last ?? ""
        return !last.contains(".") || last.hasSuffix(".html")
    }

    /// An answer instead of a route: the authentication refused the request.
    private struct Refused: Error {
        let response: Response
    }

    /// Who asks: the app's authentication if it says someone, else the browser's sign-in.
    /// A refusal of the app's answers an `/api` request (401, 403); a page goes on anonymous.
    private func identify(_ request: Request) async throws -> Identity? {
        if let authenticate {
            let everything = request.everything ?? ([:], [:])
            let asked = AuthenticationRequest(
                method: request.method, path: request.path, client: request.provenance.client, headers: everything.headers,
                cookies: everything.cookies)
            do {
                if let identity = try await authenticate(asked) { return identity }
            } catch let refusal as AuthenticationError {
                // A page goes on anonymous (its sessions' API calls meet the refusal); the API is refused.
                guard request.segments.first == "api" else { return nil }
                edge.telemetry.refused(.unauthenticated, client: asked.client, detail: refusal.message)
                throw Refused(response: refusal.httpError.response)
            } catch {
                // Its words may be a database's: they go to the log, not to the client.
                edge.telemetry.logger.error("authentication failed", metadata: ["path": "\(asked.path)", "cause": "\(error)"])
                throw Refused(response: HTTPError(status: 500, code: "authentication_failed", message: "the app's authentication failed").response)
            }
        }
        guard let signIns else { return nil }
        do {
            // A script's token, `Authorization: Bearer <token>`; else the browser's cookie.
            if let authorization = request.header("authorization") {
                let parts = authorization.split(separator: " ", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == "bearer",
                    let identity = try await signIns.identity(for: String(parts[1]).trimmingCharacters(in: .whitespaces), kind: .script)
                else {
                    if request.segments.first == "api" {
                        throw Refused(
                            response: HTTPError(status: 401, code: "unauthenticated", message: "the bearer token is not one of this server's").response)
                    }
                    return nil
                }
                return identity
            }
            guard let token = request.signInToken else { return nil }
            return try await signIns.identity(for: token)
        } catch let refused as Refused {
            throw refused
        } catch {
            edge.telemetry.logger.error("sign-in lookup failed", metadata: ["path": "\(request.path)", "cause": "\(error)"])
            throw Refused(response: HTTPError(BinderyError(.databaseUnavailable, "the server cannot tell who is signed in now")).response)
        }
    }

    /// The route of an admitted request, whose identity is known.
    private func route(_ request: Request) -> Answer {
        do {
            let segments = request.segments
            if segments.first == "api" { return try api.respond(to: request, segments: segments.dropFirst()) }
            if segments.count == 1, let response = try operations(request, segments[0]) { return .now(response) }
            if segments.first == ClientFiles.prefix {
                // The app's own copy of a client file wins.
                if let own = try files.file(for: request) { return .now(page(own, for: request)) }
                return .now(page(try client.respond(to: request, path: segments.dropFirst()), for: request))
            }
            for route in pages {
                guard let parameters = route.parameters(request.segments) else { continue }
                if route.needsSignIn && request.identity == nil { return .now(signInFirst(request)) }
                if let allows = route.allows, let identity = request.identity, !allows(identity) { return .now(forbidden(request)) }
                return try painted(for: request) { try files.page(route, parameters: parameters, for: $0) }
            }
            do {
                return try painted(for: request) { try files.respond(to: $0) }
            } catch let error as HTTPError where error.status == 404 && request.wantsPage {
                return .now(page(files.notFoundPage() ?? Self.notFoundPage(request.path), for: request))
            } catch let error as HTTPError where error.status == 404 && request.path == "/favicon.ico" {
                // The app's own icon, if it has one, was served above.
                guard let icon = try client.favicon(for: request) else { throw error }
                return .now(icon)
            }
        } catch {
            let response = HTTPError.response(for: error)
            // A browser asking for a page gets a page for the server's failure too (the app's 500.html, else Bindery's).
            guard response.status >= 500, request.wantsPage, request.segments.first != "api" else { return .now(response) }
            return .now(page(files.errorPage(status: response.status) ?? Self.errorPage(status: response.status), for: request))
        }
    }

    /// The page a browser gets when the server failed to make the one it asked for: the
    /// status in words, nothing of the cause (the log has it), and a way back.
    static func errorPage(status: Int) -> Response {
        ownPage(
            status: status, title: "Something went wrong",
            body: "<p>The server could not make this page (\(status)). Try again in a moment.</p>")
    }

    /// The page a signed-in browser gets for a page its identity may not have: the app's
    /// `403.html`, else Bindery's; not a redirect (signing in again would not help).
    private func forbidden(_ request: Request) -> Response {
        page(
            files.ownPage("403.html", status: 403)
                ?? Self.ownPage(status: 403, title: "Not for you", body: "<p>This page is not for the account you are signed in with.</p>"),
            for: request)
    }

    /// The page a browser gets for a path the app has no file for: the same
    /// 404, in words and with a way back, instead of JSON.
    static func notFoundPage(_ path: String) -> Response {
        ownPage(status: 404, title: "Not found", body: "<p>There is no page at <code>\(HTMLText.escaped(path))</code>.</p>")
    }

    /// Bindery's own page with `status`: `title` as its heading, `body` (HTML, escaped by
    /// the caller) under it, and a way back to the index.
    private static func ownPage(status: Int, title: String, body: String) -> Response {
        let html = """
            <!doctype html>
            <html lang="en">
            <head>
              <meta charset="utf-8">
              <meta name="viewport" content="width=device-width, initial-scale=1">
              <title>\(title) · Bindery</title>
              <link rel="icon" href="data:,">
              <link rel="stylesheet" href="/_bindery/v1/style.css">
            </head>
            <body>
              <header><a href="/">Bindery</a></header>
              <main class="page">
                <h1>\(title)</h1>
                \(body)
                <p><a href="/">Go to the index</a></p>
              </main>
            </body>
            </html>

            """
        var response = Response(
            status: status, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")], body: .data(Data(html.utf8)))
        response.isPage = true
        return response
    }

    /// The file `serve` gives for `request`, as a page: with its values in it where it
    /// binds any (`FirstPaint`). Such a page is made anew for each request, so it has
    /// no `ETag`, is not stored, and a revalidation (`If-None-Match`) gets it whole.
    private func painted(for request: Request, _ serve: (Request) throws -> Response) throws -> Answer {
        let file = try serve(request)
        guard let firstPaint, request.method == "GET", file.isPage, file.status == 200 || file.status == 304 else {
            return .now(page(file, for: request))
        }
        var whole = file
        if file.status == 304 {
            var unconditional = request
            unconditional.headers["if-none-match"] = nil
            whole = try serve(unconditional)
        }
        guard whole.status == 200, case .data(let html) = whole.body, FirstPaint.binds(html) else { return .now(page(file, for: request)) }
        let browser = request.browser ?? BrowserCookie.makeToken()
        return .later { [self, whole] reply in
            firstPaint.render(html, for: request, browser: browser) { rendered in
                var response = whole
                response.body = .data(rendered)
                response.headers = response.headers.filter { $0.0 != "ETag" && $0.0 != "Cache-Control" } + [("Cache-Control", "no-store")]
                reply(page(response, for: request, browser: browser))
            }
        }
    }

    /// A file, with the page headers if it is an HTML page (or its 304), and
    /// the browser's cookie if `request` came without one (`BrowserCookie`):
    /// `browser`, where the page's sessions were made for that token.
    private func page(_ file: Response, for request: Request, browser: String? = nil) -> Response {
        guard file.isPage else { return file }
        var page = file
        page.headers += pageHeaders
        if request.browser == nil {
            page.headers.append(BrowserCookie.header(token: browser ?? BrowserCookie.makeToken(), secure: request.provenance.scheme == "https"))
        }
        return page
    }

    /// A page that needs a signed-in browser, asked for without one: to the sign-in page
    /// with `next` (this path and query, same-origin by construction), else 401.
    private func signInFirst(_ request: Request) -> Response {
        guard let signInPage else {
            return HTTPError(status: 401, code: "unauthenticated", message: "this page needs you to sign in").response
        }
        var next = URLComponents()
        next.path = request.path
        let query = request.query.filter { $0.key != "session" && !$0.key.hasPrefix("session-") }
        if !query.isEmpty { next.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) } }
        var target = URLComponents(string: signInPage) ?? URLComponents()
        target.queryItems = (target.queryItems ?? []) + [URLQueryItem(name: "next", value: next.string ?? "/")]
        var response = Response(
            status: 303, headers: [("Location", target.string ?? signInPage), ("Cache-Control", "no-store")], body: .data(Data()))
        response.isPage = true
        return page(response, for: request)
    }

    /// `/healthz`, `/readyz` and `/metrics`, for an operator's probes and scraper.
    private func operations(_ request: Request, _ name: String) throws -> Response? {
        guard ["healthz", "readyz", "metrics"].contains(name) else { return nil }
        guard request.method == "GET" || request.method == "HEAD" else {
            throw HTTPError.methodNotAllowed(request.method, allowed: ["GET", "HEAD"])
        }
        switch name {
        case "healthz":
            return Self.healthy
        case "readyz":
            if let problem = whyNotReady() { throw HTTPError(status: 503, code: "not_ready", message: problem) }
            return .json(Data(#"{"status":"ready"}"#.utf8))
        default:
            guard let text = metrics() else { throw HTTPError.notFound("metrics are off (--no-metrics)") }
            return Response(
                status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")],
                body: .data(text))
        }
    }
}
