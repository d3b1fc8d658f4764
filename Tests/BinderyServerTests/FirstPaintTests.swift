import Bindery
import ExampleApp
import Foundation
import XCTest

@testable import BinderyServer

/// The first paint in memory: the HTML parser and writer, JavaScript's view of
/// values, and pages served by the router with their sessions' values in them.
/// That the server's render equals the client's is Chromium's to say
/// (`Tests/browser/test_first_paint.py`).
final class FirstPaintTests: XCTestCase {
    private var server: Server!

    override func setUpWithError() throws {
        try makeServer { _ in }
    }

    override func tearDown() {
        server.application.stop()
        server = nil
    }

    private func makeServer(_ configure: (inout ServerConfiguration) -> Void) throws {
        server?.application.stop()
        var configuration = ServerConfiguration()
        configuration.databasePath = ":memory:"
        configuration.publicDirectory = TestServer.publicDirectory
        configure(&configuration)
        server = try ExampleApp.makeServer(configuration)
    }

    /// `GET target` as a browser asks for a page, with the browser's `cookie` if it has one.
    private func page(_ target: String, cookie: String? = nil, headers: [String: String] = [:]) async -> (
        status: Int, headers: [String: String], html: String
    ) {
        let parts = target.split(separator: "?", maxSplits: 1)
        var query: [String: String] = [:]
        for pair in parts.count == 2 ? parts[1].split(separator: "&") : [] {
            let field = pair.split(separator: "=", maxSplits: 1)
            query[String(field[0])] = field.count == 2 ? String(field[1]).removingPercentEncoding : ""
        }
        var request = Request(
            method: "GET", path: String(parts[0]), headers: headers.merging(["host": "127.0.0.1:8080", "accept": "text/html"]) { a, _ in a },
            body: Data(), query: query)
        request.peer = "127.0.0.1"
        request.browser = cookie
        let response = await server.respond(to: request)
        guard case .data(let data) = response.body else { return (response.status, [:], "") }
        return (response.status, Dictionary(response.headers) { a, _ in a }, String(decoding: data, as: UTF8.self))
    }

    private func send(_ viewModel: String, _ id: String, _ input: String, _ payload: String) async throws {
        let session = try XCTUnwrap(try server.application.liveSession(viewModel, id: id))
        _ = try await session.send(input: input, payload: Data(payload.utf8))
    }

    /// The value of `attribute` on the first tag that has it.
    private func attribute(_ attribute: String, in html: String) -> String? {
        guard let range = html.range(of: " \(attribute)=\"") else { return nil }
        let rest = html[range.upperBound...]
        return CharacterReferences.resolved(String(rest[..<rest.firstIndex(of: "\"")!]))
    }

    // MARK: - HTML

    func testTheParserKeepsAPageAsItWasWritten() throws {
        let source = """
            <!doctype html>
            <!-- a comment with <tags> -->
            <ul data-list='items' class=plain><template><li data-item-text="title">x</li></template><li>one<li>two</ul>
            <p>para<div hidden>block</div>
            <script type="module">if (a < b && c > d) { "</div>" }</script>
            <textarea>&lt;kept&gt; <b></textarea><select><option value="a">A<option selected>B</select>
            <input value="a &amp; b" disabled><br/><img src=x alt="">
            """
        let once = HTMLTree.serialize(HTMLTree.parse(source))
        XCTAssertEqual(HTMLTree.serialize(HTMLTree.parse(once)), once, "writing what was read is stable")
        XCTAssertTrue(
            once.contains(#"<ul data-list="items" class="plain"><template><li data-item-text="title">x</li></template><li>one</li><li>two</li></ul>"#), once)
        XCTAssertTrue(once.contains("<p>para</p><div hidden>block</div>"), "a block closes an open paragraph: \(once)")
        XCTAssertTrue(once.contains(#"<script type="module">if (a < b && c > d) { "</div>" }</script>"#), "a script's text is not markup")
        XCTAssertTrue(once.contains("<textarea>&lt;kept&gt; <b></textarea>"))
        XCTAssertTrue(once.contains(#"<select><option value="a">A</option><option selected>B</option></select>"#), once)
        XCTAssertTrue(once.contains(#"<input value="a &amp; b" disabled><br><img src="x" alt>"#), once)
        XCTAssertTrue(once.hasPrefix("<!doctype html>\n<!-- a comment with <tags> -->\n"))
    }

    func testEveryExamplePageReadsBackAsItself() throws {
        let folder = TestServer.publicDirectory
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".html") {
            let source = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let once = HTMLTree.serialize(HTMLTree.parse(source))
            XCTAssertEqual(HTMLTree.serialize(HTMLTree.parse(once)), once, name)
            // Every element and text survives: the same tags, in the same order.
            let tags = { (html: String) in html.matches(of: /<([a-zA-Z][a-zA-Z0-9-]*)/).map { $0.1.lowercased() } }
            XCTAssertEqual(tags(once), tags(source), name)
        }
    }

    // MARK: - JavaScript's view of values

    func testNumbersAreWrittenAsJavaScriptWritesThem() {
        let cases: [(Double, String)] = [
            (0, "0"), (-0.0, "0"), (1, "1"), (-1.5, "-1.5"), (0.1, "0.1"), (123.456, "123.456"), (1e21, "1e+21"), (1e20, "100000000000000000000"),
            (123_456_789_012_345_680_000, "123456789012345680000"), (1e-6, "0.000001"), (1e-7, "1e-7"), (1.5e-10, "1.5e-10"),
            (9_007_199_254_740_993, "9007199254740992"), (1.7976931348623157e308, "1.7976931348623157e+308"), (5e-324, "5e-324"),
            (0.000123, "0.000123"), (2.5e25, "2.5e+25"),
        ]
        for (value, text) in cases { XCTAssertEqual(JSONValue.javaScriptString(of: value), text, "\(value)") }
    }

    func testValuesAreReadAsTheClientReadsThem() {
        let value: JSONValue = ["name": "Ada", "tags": ["x", .null, 2], "empty": "", "zero": 0, "nested": ["a": ["b": true]]]
        XCTAssertEqual(value.picked("record"), value, "a name alone is the whole output")
        XCTAssertEqual(value.picked("record.name"), "Ada")
        XCTAssertEqual(value.picked("record.tags.2"), 2)
        XCTAssertEqual(value.picked("record.tags.length"), 3)
        XCTAssertEqual(value.picked("record.name.length"), 3)
        XCTAssertEqual(value.picked("record.name.0"), "A")
        XCTAssertNil(value.picked("record.missing.deeper"))
        XCTAssertEqual(value.picked("record.tags.1.deeper"), .null, "null stays null, as `v == null ? v : v[key]`")
        XCTAssertEqual(value.picked("record.nested.a.b"), true)
        XCTAssertEqual(value.picked("record.tags")?.javaScriptString, "x,,2")
        XCTAssertEqual(value.picked("record.nested")?.javaScriptString, "[object Object]")
        XCTAssertEqual(
            [value.picked("record.empty"), value.picked("record.zero"), .null, "0", [], [:]].map { $0?.isTruthy },
            [
                false, false, false, true, true, true,
            ])
    }

    // MARK: - Pages

    func testAPageArrivesWithItsValuesAndItsSessionForTheClientToAdopt() async throws {
        let first = await page("/todos.html")
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(first.headers["Cache-Control"], "no-store", "a page with a session in it is made for one browser")
        XCTAssertNil(first.headers["ETag"])
        let cookie = try XCTUnwrap(first.headers["Set-Cookie"])
        let token = String(cookie.dropFirst("\(BrowserCookie.name)=".count).prefix { $0 != ";" })
        let id = try XCTUnwrap(attribute("data-bindery-session", in: first.html))
        XCTAssertEqual(attribute("data-bindery-rendered", in: first.html), "created")
        XCTAssertTrue(first.html.contains(#"<span id="remaining" data-text="remainingText">0 items left</span>"#), first.html)
        XCTAssertTrue(first.html.contains(#"<footer class="todo-footer" data-hide="isEmpty" hidden>"#))
        let snapshot = try JSONSerialization.jsonObject(with: Data(XCTUnwrap(attribute("data-bindery-snapshot", in: first.html)).utf8)) as? [String: Any]
        XCTAssertEqual(snapshot?["id"] as? String, id)
        XCTAssertNotNil(snapshot?["lastEventId"] as? Int)

        // The session is the browser's: its cookie came with the page.
        let session = try XCTUnwrap(try server.application.liveSession("todos", id: id))
        XCTAssertEqual(session.owner, SessionOwner.browser(token))
        for title in ["<script>alert(1)</script>", "\"quoted\" </template> & 'single'"] {
            try await send("todos", id, "add", String(decoding: try JSONEncoder().encode(title), as: UTF8.self))
        }

        // Its reload joins it (no new session), with the rows it has now, every value escaped.
        let count = server.application.sessionCounts["todos"]
        let again = await page("/todos.html?session=\(id)", cookie: token)
        XCTAssertEqual(server.application.sessionCounts["todos"], count, "a page of a session joins it")
        XCTAssertEqual(attribute("data-bindery-rendered", in: again.html), "joined")
        XCTAssertFalse(again.html.contains("<script>alert"), again.html)
        XCTAssertTrue(again.html.contains(#"data-key="1">"#), again.html)
        XCTAssertTrue(again.html.contains(#"value="&lt;script&gt;alert(1)&lt;/script&gt;""#), again.html)
        XCTAssertTrue(again.html.contains(#"value="&quot;quoted&quot; &lt;/template&gt; &amp; &#39;single&#39;""#), again.html)
        XCTAssertEqual(again.html.components(separatedBy: "</template>").count, 2, "the one template's end, and no other")
        XCTAssertTrue(again.html.contains(">2 items left<"))

        // Another browser cannot read it: its page goes as written, and makes none either.
        let stranger = await page("/todos.html?session=\(id)", cookie: BrowserCookie.makeToken())
        XCTAssertNil(attribute("data-bindery-session", in: stranger.html))
        XCTAssertFalse(stranger.html.contains("alert"))
    }

    func testANewSessionsStartInputsAreInItsFirstPaint() async throws {
        // home's requestData starts a load on a service's own thread: the page shows it loading.
        let home = await page("/home.html?latencyMilliseconds=10")
        XCTAssertEqual(attribute("data-bindery-rendered", in: home.html), "created")
        XCTAssertTrue(home.html.contains(#"<span class="spinner" id="loading" data-show="loading" aria-label="loading"></span>"#), home.html)
        XCTAssertTrue(home.html.contains(#"&quot;loading&quot;:true"#), "requestData was sent: \(home.html)")

        // A start input whose answer waits for its work (AnswerHold) is in the page once
        // answered; one slower than --first-paint-wait is not, and the page does not wait for it.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("first-paint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            """
            <main data-bindery="held" data-bindery-start="load" data-bindery-query="milliseconds:number">
            <p id="state" data-text="state">…</p></main>
            """.utf8
        ).write(to: folder.appendingPathComponent("held.html"))
        server.application.stop()
        var configuration = ServerConfiguration()
        configuration.databasePath = ":memory:"
        configuration.publicDirectory = folder
        configuration.firstPaintWait = .milliseconds(300)
        server = try ExampleApp.makeServer(configuration) { application in
            application.register("held") { context in
                HeldStartViewModel(milliseconds: try context.parameters(as: HeldStartViewModel.Parameters.self).milliseconds)
            }
        }
        let quick = await page("/held.html?milliseconds=20")
        XCTAssertTrue(quick.html.contains(#"<p id="state" data-text="state">loaded</p>"#), quick.html)
        let started = ContinuousClock.now
        let slow = await page("/held.html?milliseconds=5000")
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(3))
        XCTAssertTrue(slow.html.contains(#"<p id="state" data-text="state">waiting</p>"#), slow.html)
        XCTAssertEqual(attribute("data-bindery-rendered", in: slow.html), "created")
    }

    /// A page no browser adopts (a crawler, a link preview) leaves a session that goes as an
    /// unused one does, its start inputs notwithstanding; one a browser streamed from stays.
    func testASessionMadeForAPageNoBrowserAdoptsGoesAsAnUnusedOne() async throws {
        try makeServer {
            $0.runtime.unusedSessionTimeout = .seconds(60)
            $0.runtime.sessionIdleTimeout = .seconds(3600)
        }
        let crawled = await page("/table.html")  // data-bindery-start="fetchItems": an input the server sent
        let id = try XCTUnwrap(attribute("data-bindery-session", in: crawled.html))
        let application = server.application
        XCTAssertNotNil(try application.liveSession("table", id: id))
        XCTAssertEqual(application.disposeIdleSessions(now: .now + .seconds(30)), 0, "not before the unused limit")
        XCTAssertEqual(application.disposeIdleSessions(now: .now + .seconds(61)), 1, "at the unused limit, not the idle one")
        XCTAssertNil(try application.liveSession("table", id: id))
    }

    func testAPageMakesNoSessionPastTheClientsRateAndNoneWhenTheFirstPaintIsOff() async throws {
        try makeServer {
            $0.sessionCreationBurst = 1
            $0.sessionCreationRate = 1
        }
        let first = await page("/simple.html")
        XCTAssertNotNil(attribute("data-bindery-session", in: first.html))
        let second = await page("/simple.html")
        XCTAssertNil(attribute("data-bindery-session", in: second.html), "past the rate the page goes as written")
        XCTAssertTrue(second.html.contains(">…</button>"))

        try makeServer { $0.firstPaint = false }
        let plain = await page("/simple.html")
        XCTAssertNil(attribute("data-bindery-session", in: plain.html))
        XCTAssertNotNil(plain.headers["ETag"])
        XCTAssertEqual(server.application.sessionCounts["simple"] ?? 0, 0)
    }

    func testAPageTheBrowserCachedBeforeComesWholeWithItsValues() async throws {
        let file = try Data(contentsOf: TestServer.publicDirectory.appendingPathComponent("simple.html"))
        let revalidated = await page("/simple.html", headers: ["if-none-match": ETag.of(file)])
        XCTAssertEqual(revalidated.status, 200, "the file is unchanged, but its values are not the file's")
        XCTAssertNotNil(attribute("data-bindery-session", in: revalidated.html))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unbound-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let unbound = Data("<!doctype html><p>No bindings here.</p>".utf8)
        try unbound.write(to: folder.appendingPathComponent("plain.html"))
        try makeServer { $0.publicDirectory = folder }
        let unchanged = await page("/plain.html", headers: ["if-none-match": ETag.of(unbound)])
        XCTAssertEqual(unchanged.status, 304, "a page without bound roots is revalidated as any file")
    }

    func testSeveralRootsEachGetTheirOwnSession() async throws {
        let tasks = await page("/tasks.html")
        let ids = tasks.html.matches(of: /data-bindery-session="([^"]+)"/).map { String($0.1) }
        XCTAssertEqual(ids.count, 2, tasks.html)
        XCTAssertNotEqual(ids.first, ids.last)
    }
}

/// A ViewModel whose start input `load` is answered `milliseconds` later (it holds its answer).
private final class HeldStartViewModel: ViewModelBinding {
    struct Parameters: Decodable { let milliseconds: Int }
    struct Input: Decodable { let load: Observable<Void> }
    struct Output {
        let state: Driver<String>
        let disposable: Disposable
    }

    let milliseconds: Int
    init(milliseconds: Int) { self.milliseconds = milliseconds }

    func bind(_ input: Input) -> Output {
        let state = BehaviorRelay(value: "waiting")
        let disposable = input.load.subscribe(onNext: { [milliseconds] in
            let answer = AnswerHold.take()
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) {
                state.accept("loaded")
                answer?.release()
            }
        })
        return Output(state: state.asDriver(), disposable: disposable)
    }
}

extension FirstPaintTests {
    /// The modules a rendered page preloads are the ones `bindery.js` imports, no fewer and no more.
    func testARenderedPagePreloadsEveryModuleOfTheClient() async throws {
        let folder = TestServer.publicDirectory.deletingLastPathComponent().appendingPathComponent("Sources/BinderyServer/Client")
        var imported: Set<String> = []
        var waiting = ["bindery.js"]
        while let name = waiting.popLast() {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for match in text.matches(of: /^import .* from "\.\/([a-z-]+\.js)";$/.anchorsMatchLineEndings()) where imported.insert(String(match.1)).inserted {
                waiting.append(String(match.1))
            }
        }
        XCTAssertEqual(Set(ClientFiles.modules), imported)
        let simple = await page("/simple.html")
        // From under the client's digest, where bindery.js imports them from.
        let digest = ClientFiles().digest
        for module in ClientFiles.modules {
            XCTAssertTrue(simple.html.contains(#"<link rel="modulepreload" href="/_bindery/v1/\#(digest)/\#(module)">"#), module)
        }
    }

    /// A rendered page names the client's stylesheet under the release's digest (cached for
    /// good: nothing to revalidate before it paints), and its script where a page's own module
    /// imports it from, so that both are one module.
    func testARenderedPageNamesTheStylesheetOfThisRelease() async throws {
        let simple = await page("/simple.html")
        let digest = ClientFiles().digest
        XCTAssertTrue(simple.html.contains(#"<link rel="stylesheet" href="/_bindery/v1/\#(digest)/style.css">"#), simple.html)
        XCTAssertFalse(simple.html.contains(#"href="/_bindery/v1/style.css""#))
        XCTAssertTrue(simple.html.contains(#"<script type="module" src="/_bindery/v1/bindery.js"></script>"#))
        let server = try TestServer()
        let stylesheet = try server.client.get("/_bindery/v1/\(digest)/style.css")
        XCTAssertEqual(stylesheet.status, 200)
        XCTAssertEqual(stylesheet.header("Cache-Control"), "public, max-age=31536000, immutable")
        XCTAssertEqual(stylesheet.header("Content-Type"), "text/css; charset=utf-8")
    }
}
