import Bindery
import BinderyLoopback
import Foundation
import GRDB
import XCTest

@testable import BinderyDatabase
@testable import BinderyServer

/// Browsers signed in and out by their inputs (`BrowserSignIn`), over the wire to
/// the real server with the example app's `signin` and `me`: the cookie, who it
/// says asks, rotation, sign-out here and everywhere (another browser's stream
/// ends), the page that needs a sign-in, and the limits with a clock moved by hand.
final class SignInTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer()
    }

    override func tearDown() { server = nil }

    /// The logins registered so far (each with the password "correct horse").
    private var registered: Set<String> = []

    /// Signs a browser in as `login` through the `signin` ViewModel (registering the account
    /// the first time; from its cookie `token`, if it has one); the new token the answer's
    /// `Set-Cookie` gives.
    private func signIn(_ login: String, cookie token: String? = nil) throws -> String {
        let id = try server.createSession("signin")
        var headers = ["Origin": origin]
        if let token { headers["Cookie"] = "bindery_signin=\(token)" }
        let input = registered.insert(login).inserted ? "register" : "signIn"
        let answer = try server.client.post(
            "/api/signin/\(id)/inputs/\(input)", json: #"{"login": "\#(login)", "password": "correct horse"}"#, headers: headers)
        XCTAssertEqual(answer.status, 200, answer.text)
        let cookie = try XCTUnwrap(answer.header("Set-Cookie"), answer.text)
        XCTAssertTrue(cookie.hasPrefix("bindery_signin="), cookie)
        for attribute in ["Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=2592000"] { XCTAssertTrue(cookie.contains(attribute), cookie) }
        XCTAssertFalse(cookie.contains("Secure"), "plain http")
        XCTAssertEqual(answer.header("Bindery-Location"), "/", "the page goes on with the answer, after its cookie")
        let token = String(cookie.dropFirst("bindery_signin=".count).prefix { $0 != ";" })
        XCTAssertEqual(token.count, 43)
        return token
    }

    /// This server's origin, which its pages' writes name.
    private var origin: String { "http://127.0.0.1:\(server.port)" }

    /// `POST /api/me` with the sign-in cookie `token`: 201 with who it is, or the refusal.
    private func me(_ token: String?) throws -> HTTPResponse {
        try server.client.post("/api/me", headers: token.map { ["Cookie": "bindery_signin=\($0)", "Origin": origin] } ?? [:])
    }

    private func name(_ response: HTTPResponse) throws -> String? {
        (try response.json()["outputs"] as? [String: Any])?["name"] as? String
    }

    func testAnInputSignsTheBrowserInAndItsCookieSaysWhoAsks() throws {
        try assertError(try me(nil), 401, "unauthenticated")
        let token = try signIn("Ada")
        let mine = try me(token)
        XCTAssertEqual(mine.status, 201, mine.text)
        XCTAssertEqual(try name(mine), "ada", "its login, as kept")
        // The session is the identity's: the same cookie reaches it, none other does.
        let id = try XCTUnwrap(try mine.json()["id"] as? String)
        XCTAssertEqual(try server.client.get("/api/me/\(id)", headers: ["Cookie": "bindery_signin=\(token)"]).status, 200)
        XCTAssertEqual(try server.client.get("/api/me/\(id)").status, 404, "a session id without the sign-in finds nothing")
        // A forged or mangled token is nobody.
        try assertError(try me(String(repeating: "A", count: 43)), 401, "unauthenticated")
        try assertError(try me("../../etc"), 401, "unauthenticated")
    }

    func testSigningInAgainRotatesTheTokenAndSigningOutEndsIt() throws {
        let first = try signIn("Ada")
        let second = try signIn("Ada", cookie: first)
        XCTAssertNotEqual(first, second)
        try assertError(try me(first), 401, "unauthenticated")
        XCTAssertEqual(try me(second).status, 201)

        let id = try server.createSession("signin")
        let out = try server.client.post("/api/signin/\(id)/inputs/signOut", headers: ["Cookie": "bindery_signin=\(second)", "Origin": origin])
        XCTAssertEqual(out.status, 200, out.text)
        XCTAssertEqual(out.header("Set-Cookie"), "bindery_signin=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax")
        try assertError(try me(second), 401, "unauthenticated")
    }

    func testSigningOutEverywhereEndsEveryBrowsersSignInAndSessions() throws {
        let laptop = try signIn("Ada"), phone = try signIn("Ada"), other = try signIn("Grace")
        let onPhone = try XCTUnwrap(try me(phone).json()["id"] as? String)
        let stream = try SSEClient(port: server.port, path: "/api/me/\(onPhone)/events", headers: ["Cookie": "bindery_signin=\(phone)"])
        XCTAssertEqual(stream.status, 200)
        XCTAssertNotNil(try stream.next())

        let id = try server.createSession("signin")
        let everywhere = try server.client.post(
            "/api/signin/\(id)/inputs/signOutEverywhere", headers: ["Cookie": "bindery_signin=\(laptop)", "Origin": origin])
        XCTAssertEqual(everywhere.status, 200, everywhere.text)
        var events: [String] = []
        while let event = try stream.next(timeout: 5) { events.append(event.event) }
        XCTAssertTrue(events.contains("bindery.end"), "the phone's page is told its session ended: \(events)")
        try assertError(try me(phone), 401, "unauthenticated")
        try assertError(try me(laptop), 401, "unauthenticated")
        XCTAssertEqual(try me(other).status, 201, "another identity stays signed in")
    }

    /// Writes a sign-in cookie authenticates, from anywhere but this site's pages: each
    /// way around the Origin check a forged request might try is refused.
    func testACookieAuthenticatedWriteFromElsewhereIsRefused() throws {
        let token = try signIn("Ada")
        let cookie = "bindery_signin=\(token)"
        let attempts: [(String, [String: String])] = [
            ("no Origin (a client that is not this site's page)", ["Cookie": cookie]),
            ("Origin: null (a sandboxed frame, a data: page)", ["Cookie": cookie, "Origin": "null"]),
            ("a sibling host of the same site", ["Cookie": cookie, "Origin": "http://evil.localhost:\(server.port)", "Host": "app.localhost:\(server.port)"]),
            ("another site's page", ["Cookie": cookie, "Origin": "https://evil.example"]),
            ("a cross-site fetch that hides its Origin", ["Cookie": cookie, "Sec-Fetch-Site": "cross-site"]),
        ]
        for (attempt, headers) in attempts {
            let refused = try server.client.post("/api/me", headers: headers)
            XCTAssertEqual(refused.status, 403, attempt)
            XCTAssertEqual(try refused.json()["error"] as? String, "cross_origin", attempt)
        }
        // A cross-site HTML form can send text/plain with the right Origin's name in the body only: refused as not JSON.
        let id = try server.createSession("signin")
        let form = try server.client.request(
            "POST", "/api/signin/\(id)/inputs/signOut", headers: ["Cookie": cookie, "Origin": origin, "Content-Type": "text/plain"], body: Data("x".utf8))
        XCTAssertEqual(form.status, 415, form.text)
        XCTAssertEqual(try me(token).status, 201, "this site's page, with its Origin, is served")
        XCTAssertEqual(
            try server.client.post("/api/me", headers: ["Cookie": cookie, "Sec-Fetch-Site": "same-origin"]).status, 201,
            "or a browser that says same-origin")
    }

    func testWrongPasswordsAreSaidAtTheFieldThenRefused429() throws {
        _ = try signIn("ada")
        let id = try server.createSession("signin")
        for attempt in 1...5 {
            let wrong = try server.client.post(
                "/api/signin/\(id)/inputs/signIn", json: #"{"login": "ada", "password": "wrong guess"}"#, headers: ["Origin": origin])
            XCTAssertEqual(wrong.status, 200, "attempt \(attempt): the form says it, not the status")
            XCTAssertNil(wrong.header("Set-Cookie"))
            let problems = (try wrong.json()["outputs"] as? [String: Any])?["problems"] as? [String: String]
            XCTAssertEqual(problems, ["password": "wrong login or password"])
        }
        let limited = try server.client.post(
            "/api/signin/\(id)/inputs/signIn", json: #"{"login": "ada", "password": "correct horse"}"#, headers: ["Origin": origin])
        try assertError(limited, 429, "too_many_attempts")
        XCTAssertEqual(limited.header("Retry-After"), "900")
        XCTAssertNil(limited.header("Set-Cookie"))
    }

    /// A script is its maker by a token made on the maker's page: `Authorization: Bearer`,
    /// listed, revoked; a browser's cookie token is no script's, and signing out everywhere ends both.
    func testAScriptIsItsMakerByABearerTokenUntilItIsRevoked() throws {
        let cookie = try signIn("ada")
        let page = try me(cookie)
        let id = try XCTUnwrap(try page.json()["id"] as? String)
        let made = try server.client.post(
            "/api/me/\(id)/inputs/makeToken", json: #""deploy script""#, headers: ["Cookie": "bindery_signin=\(cookie)", "Origin": origin])
        XCTAssertEqual(made.status, 200, made.text)
        let outputs = try XCTUnwrap(try made.json()["outputs"] as? [String: Any])
        let token = try XCTUnwrap(outputs["newToken"] as? String)
        XCTAssertEqual(token.count, 43)
        let listed = try XCTUnwrap(outputs["tokens"] as? [[String: Any]])
        XCTAssertEqual(listed.map { $0["name"] as? String }, ["deploy script"])
        XCTAssertFalse(made.text.contains(SignIns.hash(token)), "listed by an id, never by its hash")

        // curl, no cookie, no Origin: the token is who asks.
        let script = try server.client.post("/api/me", headers: ["Authorization": "Bearer \(token)"])
        XCTAssertEqual(script.status, 201, script.text)
        XCTAssertEqual(try name(script), "ada")
        try assertError(try server.client.post("/api/me", headers: ["Authorization": "Bearer \(cookie)"]), 401, "unauthenticated")
        try assertError(try server.client.post("/api/me", headers: ["Authorization": "Bearer nope"]), 401, "unauthenticated")
        try assertError(try server.client.post("/api/me", headers: ["Authorization": "Basic YWRhOmFkYQ=="]), 401, "unauthenticated")

        let tokenID = try XCTUnwrap(listed.first?["id"] as? String)
        let revoked = try server.client.post(
            "/api/me/\(id)/inputs/revokeToken", json: "\"\(tokenID)\"", headers: ["Cookie": "bindery_signin=\(cookie)", "Origin": origin])
        XCTAssertEqual(revoked.status, 200, revoked.text)
        XCTAssertEqual((try revoked.json()["outputs"] as? [String: Any])?["tokens"] as? [[String: String]], [])
        try assertError(try server.client.post("/api/me", headers: ["Authorization": "Bearer \(token)"]), 401, "unauthenticated")

        // Signing out everywhere ends scripts' tokens too.
        let again = try server.client.post(
            "/api/me/\(id)/inputs/makeToken", json: #""nightly""#, headers: ["Cookie": "bindery_signin=\(cookie)", "Origin": origin])
        let nightly = try XCTUnwrap((try again.json()["outputs"] as? [String: Any])?["newToken"] as? String)
        XCTAssertEqual(try server.client.post("/api/me", headers: ["Authorization": "Bearer \(nightly)"]).status, 201)
        let signin = try server.createSession("signin")
        XCTAssertEqual(
            try server.client.post(
                "/api/signin/\(signin)/inputs/signOutEverywhere", headers: ["Cookie": "bindery_signin=\(cookie)", "Origin": origin]
            ).status, 200)
        try assertError(try server.client.post("/api/me", headers: ["Authorization": "Bearer \(nightly)"]), 401, "unauthenticated")
    }

    /// Where the sign-in page goes once signed in: `next` if it is a path of this site, else home,
    /// said by the answer (`Bindery-Location`), never a page elsewhere.
    func testTheSignInsAnswerSendsThePageToNextOfThisSiteOnly() throws {
        _ = try signIn("Ada")
        for (next, expected) in [("/me?tab=2", "/me?tab=2"), ("//evil.example", "/"), ("https://evil.example/", "/"), ("/\\evil", "/")] {
            let id = try XCTUnwrap(
                try server.client.post("/api/signin", json: "{\"next\": \"\(next.replacingOccurrences(of: "\\", with: "\\\\"))\"}", headers: ["Origin": origin])
                    .json()["id"]
                    as? String)
            let answer = try server.client.post(
                "/api/signin/\(id)/inputs/signIn", json: #"{"login": "ada", "password": "correct horse"}"#, headers: ["Origin": origin])
            XCTAssertEqual(answer.status, 200, answer.text)
            XCTAssertEqual(answer.header("Bindery-Location"), expected, next)
        }
        let plain = try server.createSession("simple")
        XCTAssertNil(try server.client.post("/api/simple/\(plain)/inputs/buttonTap").header("Bindery-Location"), "only an input that asks")
    }

    func testAPageForTheSignedInSendsAnyoneElseToSignInFirst() throws {
        let away = try server.client.get("/me?tab=2&session=x")
        XCTAssertEqual(away.status, 303)
        XCTAssertEqual(away.header("Location"), "/signin.html?next=/me?tab%3D2", "next is this page, without its sessions")
        let token = try signIn("Ada")
        let page = try server.client.get("/me", headers: ["Cookie": "bindery_signin=\(token)"])
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.text.contains(#"<h1 id="name" data-text="name">ada</h1>"#), "with who it is, in the first paint: \(page.text)")
    }

    /// A page for some identities only: a stranger signs in first, a signed-in one it
    /// refuses gets 403 (no redirect: signing in again would not help), the one it accepts
    /// the page; and a ViewModel's own check (`requireIdentity(where:)`) is 403 JSON.
    func testAPageOrViewModelForSomeIdentitiesRefusesTheOthers403() throws {
        server = try TestServer { configuration in
            configuration.pages.append(PageRoute("/ada-only", file: "me.html", viewModel: "me", allows: { $0.attributes["login"] == "ada" }))
        }
        XCTAssertEqual(try server.client.get("/ada-only").status, 303)
        let ada = try signIn("Ada"), grace = try signIn("Grace")
        let refused = try server.client.get("/ada-only", headers: ["Cookie": "bindery_signin=\(grace)", "Accept": "text/html"])
        XCTAssertEqual(refused.status, 403, refused.text)
        XCTAssertNil(refused.header("Location"))
        XCTAssertTrue(refused.text.contains("not for the account you are signed in with"), refused.text)
        XCTAssertFalse(refused.text.contains("data-bindery"), "no session made for a refused page")
        XCTAssertEqual(try server.client.get("/ada-only", headers: ["Cookie": "bindery_signin=\(ada)"]).status, 200)

        let context = ViewModelContext(sessionID: "s", identity: Identity("g", attributes: ["login": "grace"]))
        XCTAssertThrowsError(try context.requireIdentity(where: { $0.attributes["login"] == "ada" })) { error in
            XCTAssertEqual((error as? BinderyError)?.code, .forbidden)
            XCTAssertEqual(HTTPError.response(for: error).status, 403)
        }
        XCTAssertThrowsError(try ViewModelContext(sessionID: "s").requireIdentity(where: { _ in true })) { error in
            XCTAssertEqual((error as? BinderyError)?.code, .unauthenticated)
        }
        XCTAssertEqual(try context.requireIdentity(where: { $0.id == "g" }).id, "g")
    }

    func testTheTokenIsKeptHashedAndExpiresByAClockMovedByHand() async throws {
        let database = try DatabaseQueue()
        let store = try SQLiteSignInStore(database: database)
        let signIns = SignIns(store: store, lifetime: .seconds(100), idleLimit: .seconds(10))
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let token = try await signIns.signIn(Identity("ada", attributes: ["role": "admin"]), replacing: nil, now: start)
        let rows = try await database.read { db in try Row.fetchAll(db, sql: "SELECT token_hash FROM bindery_sign_in") }
        XCTAssertEqual(rows.map { $0["token_hash"] as String }, [SignIns.hash(token)], "the hash is kept, not the token")
        XCTAssertFalse(rows.description.contains(token))

        let identity = try await signIns.identity(for: token, now: start.addingTimeInterval(9))
        XCTAssertEqual(identity, Identity("ada", attributes: ["role": "admin"]))
        let idle = try await signIns.identity(for: token, now: start.addingTimeInterval(11))
        XCTAssertNil(idle, "unused past its idle limit")

        // Used within its idle limit it lives on, up to its lifetime.
        let often = SignIns(store: store, lifetime: .seconds(200), idleLimit: .seconds(70))
        let busy = try await often.signIn(Identity("grace"), replacing: nil, now: start)
        for offset in [61.0, 122, 183] {
            let still = try await SignIns(store: store, lifetime: .seconds(200), idleLimit: .seconds(70)).identity(
                for: busy, now: start.addingTimeInterval(offset))
            XCTAssertEqual(still?.id, "grace", "\(offset) s")
        }
        let over = try await SignIns(store: store, lifetime: .seconds(200), idleLimit: .seconds(70)).identity(for: busy, now: start.addingTimeInterval(201))
        XCTAssertNil(over, "past its lifetime, used or not")
    }
}
