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
    /// Why the server is not ready (`/readyz`): it does not accept requests, or
    /// the application says why (`Readiness`); nil when it is.
    let whyNotReady: @Sendable () -> String?
    /// The metrics in Prometheus' text format (`/metrics`), nil when they are off.
    let metrics: @Sendable () -> Data?

    /// `/healthz`: the process is up (answered while draining too).
    static let healthy = Response.json(Data(#"{"status":"ok"}"#.utf8))

    func respond(to request: Request) -> Answer {
        do {
            var request = request
            try edge.admit(&request)
            let segments = request.segments
            if segments.first == "api" {
                guard let authenticate else { return try api.respond(to: request, segments: segments.dropFirst()) }
                return authenticated(request, by: authenticate)
            }
            if segments.count == 1, let response = try operations(request, segments[0]) { return .now(response) }
            if segments.first == ClientFiles.prefix {
                // The app's own copy of a client file wins.
                if let own = try files.file(for: request) { return .now(page(own, for: request)) }
                return .now(page(try client.respond(to: request, path: segments.dropFirst()), for: request))
            }
            for route in pages {
                guard let parameters = route.parameters(request.segments) else { continue }
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
        let html = """
            <!doctype html>
            <html lang="en">
            <head>
              <meta charset="utf-8">
              <meta name="viewport" content="width=device-width, initial-scale=1">
              <title>Something went wrong · Bindery</title>
              <link rel="icon" href="data:,">
              <link rel="stylesheet" href="/_bindery/v1/style.css">
            </head>
            <body>
              <header><a href="/">Bindery</a></header>
              <main class="page">
                <h1>Something went wrong</h1>
                <p>The server could not make this page (\(status)). Try again in a moment.</p>
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

    /// The page a browser gets for a path the app has no file for: the same
    /// 404, in words and with a way back, instead of JSON.
    static func notFoundPage(_ path: String) -> Response {
        let escaped = HTMLText.escaped(path)
        let html = """
            <!doctype html>
            <html lang="en">
            <head>
              <meta charset="utf-8">
              <meta name="viewport" content="width=device-width, initial-scale=1">
              <title>Not found · Bindery</title>
              <link rel="icon" href="data:,">
              <link rel="stylesheet" href="/_bindery/v1/style.css">
            </head>
            <body>
              <header><a href="/">Bindery</a></header>
              <main class="page">
                <h1>Not found</h1>
                <p>There is no page at <code>\(escaped)</code>.</p>
                <p><a href="/">Go to the index</a></p>
              </main>
            </body>
            </html>

            """
        var response = Response(
            status: 404, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")],
            body: .data(Data(html.utf8)))
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

    /// Asks the app's authentication first, off libmicrohttpd's thread (it may
    /// await a database), then routes with the identity it gave.
    private func authenticated(_ request: Request, by authenticate: @escaping Authenticator) -> Answer {
        .later { [api, edge] reply in
            Task {
                var request = request
                let everything = request.everything ?? ([:], [:])
                let asked = AuthenticationRequest(
                    method: request.method, path: request.path, client: request.provenance.client,
                    headers: everything.headers, cookies: everything.cookies)
                do {
                    request.identity = try await authenticate(asked)
                } catch let refusal as AuthenticationError {
                    edge.telemetry.refused(.unauthenticated, client: asked.client, detail: refusal.message)
                    return reply(refusal.httpError.response)
                } catch {
                    // Its words may be a database's: they go to the log, not to the client.
                    edge.telemetry.logger.error("authentication failed", metadata: ["path": "\(asked.path)", "cause": "\(error)"])
                    return reply(HTTPError(status: 500, code: "authentication_failed", message: "the app's authentication failed").response)
                }
                do {
                    switch try api.respond(to: request, segments: request.segments.dropFirst()) {
                    case .now(let response): reply(response)
                    case .later(let work): work(reply)
                    }
                } catch {
                    reply(HTTPError.response(for: error))
                }
            }
        }
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
