import ExampleApp
import Foundation
import XCTest

@testable import BinderyServer

/// The router in memory: the same app as the executable, requests made as
/// values and answered without libmicrohttpd or a socket. What needs the wire
/// (deadlines, streams, connection limits, the raw URL) is the live suites'.
final class RouterTests: XCTestCase {
    private var server: Server!

    override func setUpWithError() throws {
        var configuration = ServerConfiguration()
        configuration.databasePath = ":memory:"
        configuration.publicDirectory = TestServer.publicDirectory
        server = try ExampleApp.makeServer(configuration)  // never started: no daemon, no port
    }

    override func tearDown() {
        server.application.stop()
        server = nil
    }

    /// `method path` from 127.0.0.1 to host `host`, with `headers` (lower-case names) and `body`.
    private func respond(
        _ method: String, _ target: String, host: String = "127.0.0.1:8080", headers: [String: String] = [:],
        body: String = ""
    ) async -> (status: Int, headers: [String: String], json: [String: Any]) {
        let parts = target.split(separator: "?", maxSplits: 1)
        var query: [String: String] = [:]
        for pair in parts.count == 2 ? parts[1].split(separator: "&") : [] {
            let field = pair.split(separator: "=", maxSplits: 1)
            query[String(field[0])] = field.count == 2 ? String(field[1]).removingPercentEncoding : ""
        }
        var request = Request(
            method: method, path: String(parts[0]), headers: headers.merging(["host": host]) { a, _ in a },
            body: Data(body.utf8), query: query)
        request.peer = "127.0.0.1"
        let response = await server.respond(to: request)
        guard case .data(let data) = response.body else { return (response.status, [:], [:]) }
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (response.status, Dictionary(response.headers) { a, _ in a }, json)
    }

    func testASessionFromCreateToInputToOutput() async throws {
        let catalog = await respond("GET", "/api")
        XCTAssertEqual(catalog.status, 200)
        XCTAssertTrue((catalog.json["viewModels"] as? [[String: Any]])?.contains { $0["name"] as? String == "simple" } == true)
        let created = await respond("POST", "/api/simple")
        XCTAssertEqual(created.status, 201)
        let id = try XCTUnwrap(created.json["id"] as? String)
        XCTAssertEqual(created.headers["Location"], "/api/simple/\(id)")
        let tapped = await respond("POST", "/api/simple/\(id)/inputs/buttonTap")
        XCTAssertEqual(tapped.status, 200)
        XCTAssertEqual((tapped.json["outputs"] as? [String: Any])?["backgroundColor"] as? String, "blue")
        let plainText = await respond("POST", "/api/messages", headers: ["content-type": "text/plain"], body: "{}")
        XCTAssertEqual(plainText.status, 415)
        let deleted = await respond("DELETE", "/api/simple/\(id)")
        XCTAssertEqual(deleted.status, 204)
        let gone = await respond("GET", "/api/simple/\(id)")
        XCTAssertEqual(gone.json["error"] as? String, "unknown_session")
    }

    func testTheEdgeAndTheRoutesRefuseWhatTheyMust() async {
        let foreignHost = await respond("GET", "/api", host: "evil.example")
        XCTAssertEqual(foreignHost.json["error"] as? String, "host_not_allowed")
        let foreignOrigin = await respond("POST", "/api/simple", headers: ["origin": "http://evil.example"])
        XCTAssertEqual(foreignOrigin.status, 403)
        let malformed = await respond("GET", "/api/simple/not-an-id")
        XCTAssertEqual(malformed.json["error"] as? String, "invalid_session_id")
        let unknown = await respond("GET", "/api/simple/AAAAAAAAAAAAAAAAAAAAAA")
        XCTAssertEqual(unknown.status, 404)
        let noViewModel = await respond("POST", "/api/nope")
        XCTAssertEqual(noViewModel.json["error"] as? String, "unknown_view_model")
        let put = await respond("PUT", "/api/simple/AAAAAAAAAAAAAAAAAAAAAA")
        XCTAssertEqual(put.status, 405)
        XCTAssertEqual(put.headers["Allow"], "GET, DELETE, HEAD")
        let streams = await respond("GET", "/api/streams?sessions=simple/x")
        XCTAssertEqual(streams.json["error"] as? String, "invalid_session_id")
    }

    func testAPageGetsItsHeadersAndTheBrowsersCookie() async {
        let page = await respond("GET", "/simple.html")
        XCTAssertEqual(page.status, 200)
        XCTAssertNotNil(page.headers["Content-Security-Policy"])
        XCTAssertTrue(page.headers["Set-Cookie"]?.hasPrefix("bindery_browser=") == true)
        let script = await respond("GET", "/_bindery/v1/bindery.js")
        XCTAssertEqual(script.status, 200)
        XCTAssertNil(script.headers["Set-Cookie"])
        let healthy = await respond("GET", "/healthz")
        XCTAssertEqual(healthy.status, 200)
        let ready = await respond("GET", "/readyz")
        XCTAssertEqual(ready.status, 503, "a server that was never started takes no requests")
    }

    func testABrowserAskingForAMissingPageGetsAPageAndAScriptGetsJSON() async throws {
        var request = Request(method: "GET", path: "/nope<b>.html", headers: ["host": "127.0.0.1", "accept": "text/html,application/xhtml+xml"], body: Data())
        request.peer = "127.0.0.1"
        let page = await server.respond(to: request)
        XCTAssertEqual(page.status, 404)
        XCTAssertTrue(page.headers.contains { $0 == ("Content-Type", "text/html; charset=utf-8") })
        XCTAssertTrue(page.headers.contains { $0.0 == "Content-Security-Policy" }, "a page like any other")
        guard case .data(let html) = page.body else { return XCTFail("a page has a body") }
        let text = String(decoding: html, as: UTF8.self)
        XCTAssertTrue(text.contains("Not found") && text.contains("/nope&lt;b&gt;.html") && !text.contains("<b>"), text)
        let json = await respond("GET", "/nope.html")
        XCTAssertEqual(json.status, 404)
        XCTAssertEqual(json.json["error"] as? String, "not_found")
        let api = await respond("GET", "/api/nope/x/y/z/w", headers: ["accept": "text/html"])
        XCTAssertEqual(api.json["error"] as? String, "not_found", "the API answers JSON whatever the Accept")
    }

    /// A browser asks every site for /favicon.ico: an app without one gets Bindery's, not a 404 in the console.
    func testAnAppWithoutAFaviconGetsBinderysAndOneWithItsOwnKeepsIt() async throws {
        let icon = await respond("GET", "/favicon.ico", headers: ["accept": "image/avif,image/webp,*/*"])
        XCTAssertEqual(icon.status, 200)
        XCTAssertEqual(icon.headers["Content-Type"], "image/svg+xml")
        XCTAssertNotNil(icon.headers["ETag"])
        let posted = await respond("POST", "/favicon.ico")
        XCTAssertEqual(posted.status, 405)

        let own = FileManager.default.temporaryDirectory.appendingPathComponent("favicon-\(UUID())")
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: own) }
        try Data([0, 0, 1, 0]).write(to: own.appendingPathComponent("favicon.ico"))
        server.application.stop()
        var configuration = ServerConfiguration()
        configuration.databasePath = ":memory:"
        configuration.publicDirectory = own
        server = try ExampleApp.makeServer(configuration)
        let theirs = await respond("GET", "/favicon.ico")
        XCTAssertEqual(theirs.status, 200)
        XCTAssertEqual(theirs.headers["Content-Type"], "image/x-icon", "the app's own icon wins")
    }

    /// The page at `path`, as a browser asks for it: its status and HTML.
    private func page(_ path: String) async -> (status: Int, html: String) {
        var request = Request(method: "GET", path: path, headers: ["host": "127.0.0.1", "accept": "text/html"], body: Data())
        request.peer = "127.0.0.1"
        let response = await server.respond(to: request)
        guard case .data(let data) = response.body else { return (response.status, "") }
        return (response.status, String(decoding: data, as: UTF8.self))
    }

    func testAPageRouteGivesItsRootThePathsParameters() async {
        let profile = await page("/profile/3")
        XCTAssertEqual(profile.status, 200)
        XCTAssertTrue(profile.html.contains(#"data-bindery="profile" data-bindery-params="{&quot;userID&quot;:3}""#), profile.html)
        XCTAssertFalse(profile.html.contains(#"'{"userID": 1}'"#), "the file's own parameters give way to the route's")
        for path in ["/profile/three", "/profile/", "/profile/3/more", "/profile/99999999999999999999"] {
            let missing = await page(path)
            XCTAssertEqual(missing.status, 404, path)
        }
    }

    func testAPagesParametersAreEscapedInItsHTML() async {
        // As libmicrohttpd gives the path: decoded.
        let hostile = await page("/todos/\"><img src=x onerror=alert(1)>'")
        XCTAssertEqual(hostile.status, 200)
        XCTAssertFalse(hostile.html.contains("<img"), hostile.html)
        XCTAssertTrue(hostile.html.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&#39;"), hostile.html)
    }

    func testPageRoutesRefusePatternsThatAreNotTheirs() {
        let route = PageRoute("/a/:id(int)/:name", file: "a.html", viewModel: "a")
        XCTAssertEqual(route.parameters(["a", "7", "x"]), ["id": .number(7), "name": .string("x")])
        XCTAssertNil(route.parameters(["a", "x", "x"]))
        XCTAssertNil(route.parameters(["b", "7", "x"]))
        XCTAssertEqual(
            route.render(Data("<main data-bindery='a' data-bindery-params='{}'>".utf8), parameters: ["q": .string("\"'")]).map {
                String(decoding: $0, as: UTF8.self)
            },
            "<main data-bindery=\"a\" data-bindery-params=\"{&quot;q&quot;:&quot;\\&quot;&#39;&quot;}\"></main>")
        XCTAssertNil(route.render(Data("<main data-bindery=\"b\">".utf8), parameters: [:]), "no root of its ViewModel")
        XCTAssertNil(route.render(Data("<template><main data-bindery=\"a\"></main></template>".utf8), parameters: [:]), "a template's is no root")
    }

    /// A route whose file is missing, or has no root of its ViewModel, is the app's mistake: a JSON 500 saying which.
    func testAPageRouteWithoutItsFileOrRootAnswersAJSONError() async throws {
        server.application.stop()
        var configuration = ServerConfiguration()
        configuration.databasePath = ":memory:"
        configuration.publicDirectory = TestServer.publicDirectory
        configuration.pages = [
            PageRoute("/missing/:id", file: "no-such-page.html", viewModel: "profile"),
            PageRoute("/wrong/:id", file: "profile.html", viewModel: "todos"),
        ]
        server = try ExampleApp.makeServer(configuration)
        for path in ["/missing/1", "/wrong/1"] {
            let answer = await respond("GET", path)
            XCTAssertEqual(answer.status, 500, path)
            XCTAssertEqual(answer.json["error"] as? String, "page_missing", path)
        }
        let posted = await respond("POST", "/missing/1")
        XCTAssertEqual(posted.status, 405)
        // A browser gets a page for it, which says nothing of the cause.
        let browser = await page("/missing/1")
        XCTAssertEqual(browser.status, 500)
        XCTAssertTrue(browser.html.contains("<h1>Something went wrong</h1>"), browser.html)
        XCTAssertFalse(browser.html.contains("no-such-page"))
    }
}
