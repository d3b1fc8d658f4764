import Bindery
import BinderyLoopback
import BinderyServer
import Foundation
import Todo
import XCTest

/// Who may reach a session besides its id: the browser that made it (its
/// cookie), the identity it was made for, or, for a session made by curl or a
/// script, anyone with the id.
final class SessionAccessTests: XCTestCase {
    private let mine = ["Cookie": "bindery_browser=AAAAAAAAAAAAAAAAAAAAAA"]
    private let theirs = ["Cookie": "bindery_browser=BBBBBBBBBBBBBBBBBBBBBB"]

    func testAPageGetsABrowserCookieOnce() throws {
        let server = try TestServer()
        let first = try server.client.get("/simple.html")
        let cookie = try XCTUnwrap(first.header("Set-Cookie"))
        XCTAssertTrue(cookie.hasPrefix("bindery_browser="), cookie)
        for attribute in ["Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=31536000"] { XCTAssertTrue(cookie.contains(attribute), cookie) }
        XCTAssertFalse(cookie.contains("Secure"), "plain http")
        let token = String(cookie.dropFirst("bindery_browser=".count).prefix { $0 != ";" })
        XCTAssertEqual(token.count, 22)
        XCTAssertNil(try server.client.get("/simple.html", headers: ["Cookie": "bindery_browser=\(token)"]).header("Set-Cookie"), "it has one")
        XCTAssertNotNil(
            try server.client.get("/simple.html", headers: ["Cookie": "bindery_browser=forged"]).header("Set-Cookie"),
            "a token the server could not have made is none")
        XCTAssertNil(try server.client.get("/api").header("Set-Cookie"), "only pages set it: curl never needs it")
        // A page revalidated from the cache (304) gets it too, and its headers. (A page with
        // bound roots has no ETag: it comes with its session's values, made for one browser.)
        XCTAssertNil(first.header("ETag"))
        let etag = try XCTUnwrap(try server.client.get("/_bindery/v1/inspector.html").header("ETag"))
        let revalidated = try server.client.get("/_bindery/v1/inspector.html", headers: ["If-None-Match": etag])
        XCTAssertEqual(revalidated.status, 304)
        XCTAssertTrue(revalidated.header("Set-Cookie")?.hasPrefix("bindery_browser=") == true)
        XCTAssertNotNil(revalidated.header("Content-Security-Policy"))
        XCTAssertNil(try server.client.get("/_bindery/v1/bindery.js").header("Set-Cookie"))
        // Behind a proxy that says the browser used https, the cookie is Secure.
        let proxied = try TestServer { $0.trustedProxies = ["127.0.0.1"] }
        XCTAssertTrue(try proxied.client.get("/simple.html", headers: ["X-Forwarded-Proto": "https"]).header("Set-Cookie")?.contains("; Secure") == true)
    }

    func testABrowsersSessionAnswersThatBrowserOnly() throws {
        let server = try TestServer()
        let created = try server.client.post("/api/simple", headers: mine)
        XCTAssertEqual(created.status, 201)
        let id = try XCTUnwrap(created.json()["id"] as? String)
        XCTAssertEqual(try server.client.get("/api/simple/\(id)", headers: mine).status, 200)
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap", headers: mine).status, 200)
        // A pasted URL in another browser, or curl: as if there were no such session.
        for headers in [theirs, [:]] {
            let snapshot = try server.client.get("/api/simple/\(id)", headers: headers)
            XCTAssertEqual(snapshot.status, 404)
            XCTAssertEqual(try snapshot.json()["error"] as? String, "unknown_session")
            XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap", headers: headers).status, 404)
            XCTAssertEqual(try server.client.get("/api/simple/\(id)/outputs/buttonTitle", headers: headers).status, 404)
            XCTAssertEqual(try SSEClient(port: server.port, path: "/api/simple/\(id)/events", headers: headers).status, 404)
            XCTAssertEqual(try server.client.request("DELETE", "/api/simple/\(id)", headers: headers).status, 404)
        }
        let multiplexed = try SSEClient(port: server.port, path: "/api/streams?sessions=simple/\(id)", headers: theirs)
        XCTAssertEqual(try multiplexed.next()?.event, "bindery.gone")
        // Nothing the others did touched it: one tap, from its own browser.
        let snapshot = try server.client.get("/api/simple/\(id)", headers: mine)
        XCTAssertEqual(((try snapshot.json()["outputs"]) as? [String: Any])?["backgroundColor"] as? String, "blue")
    }

    func testASessionMadeWithoutACookieIsReachedByItsIdAlone() throws {
        let server = try TestServer()
        let id = try server.createSession()
        for headers in [mine, theirs, [:]] {
            XCTAssertEqual(try server.client.get("/api/simple/\(id)", headers: headers).status, 200)
        }
    }

    func testAChildSessionAnswersItsParentsBrowser() throws {
        let server = try TestServer()
        let list = try XCTUnwrap(try server.client.post("/api/list", headers: mine).json()["id"] as? String)
        let stream = try SSEClient(port: server.port, path: "/api/list/\(list)/events", headers: mine)
        XCTAssertEqual(try server.client.post("/api/list/\(list)/inputs/selectItem", json: "2", headers: mine).status, 200)
        var reference: [String: Any]?
        while reference == nil, let event = try stream.next() {
            if event.event == "presentDetailViewModel" { reference = try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any] }
        }
        let url = try XCTUnwrap(reference?["url"] as? String)
        XCTAssertEqual(try server.client.get(url, headers: mine).status, 200)
        XCTAssertEqual(try server.client.get(url, headers: theirs).status, 404)
    }

    // MARK: Authentication

    /// `X-User: <name>` says who asks; mallory is known and refused; no header is refused.
    /// What a check that asks a database might throw, in the database's words.
    private struct DatabaseDown: Error, CustomStringConvertible {
        var description: String { "connection to server at \"10.0.0.9\", port 5432 failed" }
    }

    private func authenticatedServer() throws -> TestServer {
        let server = try TestServer {
            $0.authenticate = { request in
                guard let user = request.header("x-user") else { throw AuthenticationError.unauthenticated("send X-User") }
                if user == "mallory" { throw AuthenticationError.forbidden("mallory may not") }
                if user == "broken" { throw DatabaseDown() }
                // The check may await anything (a database, another service): it runs off the server's threads.
                await Task.yield()
                return Identity(user, attributes: ["name": user.capitalized])
            }
        }
        // A todo list per user: the list is the identity's.
        let application = server.server.application
        if !application.services.contains(TodoStore.self) {
            application.services.register(TodoStore.self) { services in try TodoStore(database: try services.database()) }
        }
        application.register("my-todos") { context in
            guard let user = context.identity else { throw BinderyError(.invalidPayload, "sign in first") }
            return try TodoListViewModel(list: "user-" + user.id, store: try context.services.get(TodoStore.self))
        }
        return server
    }

    func testTheAppsAuthenticationDecidesWhoMayAsk() throws {
        let server = try authenticatedServer()
        let nobody = try server.client.post("/api/simple")
        XCTAssertEqual(nobody.status, 401, nobody.text)
        XCTAssertEqual(try nobody.json()["error"] as? String, "unauthenticated")
        XCTAssertEqual(try nobody.json()["message"] as? String, "send X-User")
        let mallory = try server.client.get("/api", headers: ["X-User": "mallory"])
        XCTAssertEqual(mallory.status, 403)
        XCTAssertEqual(try mallory.json()["error"] as? String, "forbidden")
        XCTAssertEqual(try server.client.get("/api", headers: ["X-User": "alice"]).status, 200)
        XCTAssertEqual(try server.client.get("/simple.html").status, 200, "pages are files: the app's check is for the API")
        // An authentication that fails in its own way: a 500, without its words (they may be a database's).
        let broken = try server.client.get("/api", headers: ["X-User": "broken"])
        try assertError(broken, 500, "authentication_failed")
        XCTAssertFalse(broken.text.contains("10.0.0.9"), broken.text)
        let metrics = try server.client.get("/metrics").text
        XCTAssertTrue(metrics.contains(#"bindery_refusals_total{reason="unauthenticated"} 2"#), metrics)
    }

    func testEachUserHasTheirOwnTodoListAndCannotReachAnothersSession() throws {
        let server = try authenticatedServer()
        let alice = ["X-User": "alice"], bob = ["X-User": "bob"]
        let aliceSession = try XCTUnwrap(try server.client.post("/api/my-todos", headers: alice).json()["id"] as? String)
        XCTAssertEqual(try server.client.post("/api/my-todos/\(aliceSession)/inputs/add", json: #""alice's milk""#, headers: alice).status, 200)
        let bobSession = try XCTUnwrap(try server.client.post("/api/my-todos", headers: bob).json()["id"] as? String)
        let bobs = try server.client.get("/api/my-todos/\(bobSession)", headers: bob)
        XCTAssertEqual(((try bobs.json()["outputs"] as? [String: Any])?["items"] as? [Any])?.count, 0, "bob's list is his own: \(bobs.text)")
        // Bob holds Alice's session id: it is not his to reach, even from Alice's browser.
        XCTAssertEqual(try server.client.get("/api/my-todos/\(aliceSession)", headers: bob).status, 404)
        XCTAssertEqual(try server.client.post("/api/my-todos/\(aliceSession)/inputs/add", json: #""bob was here""#, headers: bob).status, 404)
        XCTAssertEqual(try server.client.get("/api/my-todos/\(aliceSession)", headers: bob.merging(mine) { a, _ in a }).status, 404)
        // Alice reaches it from any browser: the session is hers, not her browser's.
        let again = try server.client.get("/api/my-todos/\(aliceSession)", headers: alice.merging(theirs) { a, _ in a })
        XCTAssertEqual(again.status, 200)
        XCTAssertTrue(again.text.contains("alice's milk") && !again.text.contains("bob was here"), again.text)
        // A second session of Alice's sees the same list: the list is the identity's.
        let second = try server.client.post("/api/my-todos", headers: alice)
        XCTAssertTrue(second.text.contains("alice's milk"), second.text)
    }

    func testTheIdentityReachesTheFactory() throws {
        let server = try authenticatedServer()
        let seen = Locked<Identity?>(nil)
        server.server.application.register("who") { context in
            seen.withLock { $0 = context.identity }
            return BurstTests.TickViewModel()
        }
        XCTAssertEqual(try server.client.post("/api/who", headers: ["X-User": "carol"]).status, 201)
        XCTAssertEqual(seen.withLock { $0 }, Identity("carol", attributes: ["name": "Carol"]))
    }
}
