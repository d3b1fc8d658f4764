import BinderyLoopback
import XCTest

/// The edge: a page of another site cannot reach the server by pointing its
/// name at this machine (DNS rebinding), writes come from this origin or from
/// no page at all, and nothing in a URL cuts a path short. Requests are
/// written on raw sockets where a client library would correct them.
final class EdgeTests: XCTestCase {
    func testAForeignHostIsMisdirectedEvenFromItsOwnOrigin() throws {
        let server = try TestServer()
        let sessions = server.server.application.sessionCount
        // A page on evil.example whose name now resolves to 127.0.0.1: its own origin, its own Host.
        let rebound = try server.client.post("/api/simple", headers: ["Host": "evil.example:\(server.port)", "Origin": "http://evil.example:\(server.port)"])
        try assertError(rebound, 421, "host_not_allowed")
        XCTAssertEqual(server.server.application.sessionCount, sessions, "no session was made")
        try assertError(try server.client.get("/api", headers: ["Host": "evil.example"]), 421, "host_not_allowed")
        try assertError(try server.client.get("/index.html", headers: ["Host": "evil.example"]), 421, "host_not_allowed")
        try assertError(try server.client.get("/api", headers: ["Host": "localhost.evil.example"]), 421, "host_not_allowed")
        // What a browser on this machine sends.
        for host in [
            "localhost:\(server.port)", "LOCALHOST", "app.localhost:\(server.port)", "127.0.0.1:\(server.port)", "[::1]:\(server.port)", "192.168.1.20",
        ] {
            XCTAssertEqual(try server.client.get("/api", headers: ["Host": host]).status, 200, host)
        }
    }

    func testNamedHostsAreTheOnlyNamesAnswered() throws {
        let server = try TestServer { $0.allowedHosts = ["bindery.example", ".apps.example"] }
        for host in ["bindery.example", "bindery.example:443", "apps.example", "a.apps.example", "10.0.0.7:8080"] {
            XCTAssertEqual(try server.client.get("/api", headers: ["Host": host]).status, 200, host)
        }
        for host in ["localhost", "evil.example", "xapps.example"] {
            try assertError(try server.client.get("/api", headers: ["Host": host]), 421, "host_not_allowed")
        }
        let any = try TestServer { $0.allowedHosts = ["*"] }
        XCTAssertEqual(try any.client.get("/api", headers: ["Host": "anything.example"]).status, 200)
    }

    func testHostMustBeThereOnceAndBeAHost() throws {
        let server = try TestServer()
        try assertError(try server.client.raw("GET /api HTTP/1.1\r\nConnection: close\r\n\r\n"), 400, "missing_host")
        XCTAssertEqual(try server.client.raw("GET /api HTTP/1.0\r\n\r\n").status, 200, "HTTP/1.0 has no Host to check")
        // …and no origin a page's Origin could match.
        let write = "POST /api/simple HTTP/1.0\r\nOrigin: http://evil.example\r\nContent-Length: 0\r\n\r\n"
        try assertError(try server.client.raw(write), 403, "cross_origin")
        try assertError(
            try server.client.raw("GET /api HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: close\r\n\r\n"), 400, "duplicate_header")
        try assertError(try server.client.get("/api", headers: ["Host": "local host"]), 400, "invalid_host")
        try assertError(try server.client.get("/api", headers: ["Host": "localhost:99999"]), 400, "invalid_host")
    }

    func testWritesComeFromThisOriginOnly() throws {
        let server = try TestServer()
        let id = try server.createSession()
        let input = "/api/simple/\(id)/inputs/buttonTap"
        let own = "http://127.0.0.1:\(server.port)"
        XCTAssertEqual(try server.client.post(input, headers: ["Origin": own]).status, 200)
        XCTAssertEqual(try server.client.post(input).status, 200, "curl and scripts send no Origin")
        // Scheme and port are part of the origin.
        try assertError(try server.client.post(input, headers: ["Origin": "https://127.0.0.1:\(server.port)"]), 403, "cross_origin")
        try assertError(try server.client.post(input, headers: ["Origin": "http://127.0.0.1:\(server.port &+ 1)"]), 403, "cross_origin")
        try assertError(try server.client.post(input, headers: ["Origin": "http://127.0.0.1"]), 403, "cross_origin")
        try assertError(try server.client.post(input, headers: ["Origin": "null"]), 403, "cross_origin")
        // Two Origins: neither is believed.
        let twice =
            "POST \(input) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: \(own)\r\nOrigin: http://evil.example\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        try assertError(try server.client.raw(twice), 400, "duplicate_header")
        // The browser says the page is of another site.
        try assertError(try server.client.post(input, headers: ["Origin": own, "Sec-Fetch-Site": "cross-site"]), 403, "cross_origin")
        XCTAssertEqual(try server.client.post(input, headers: ["Origin": own, "Sec-Fetch-Site": "same-origin"]).status, 200)
        XCTAssertEqual(
            try server.client.get("/api/simple/\(id)", headers: ["Sec-Fetch-Site": "cross-site"]).status, 200,
            "reads are the Host check's; a cross-site read gets no CORS headers anyway")
    }

    func testATrustedProxySaysWhichSchemeTheClientUsed() throws {
        let direct = try TestServer { $0.allowedHosts = ["bindery.example"] }
        let https = ["Host": "bindery.example", "Origin": "https://bindery.example", "X-Forwarded-Proto": "https"]
        try assertError(try direct.client.post("/api/simple", headers: https), 403, "cross_origin")
        let proxied = try TestServer {
            $0.allowedHosts = ["bindery.example"]
            $0.trustedProxies = ["127.0.0.0/8"]
        }
        XCTAssertEqual(try proxied.client.post("/api/simple", headers: https).status, 201)
    }

    func testRefusalsAreCountedByReason() throws {
        let server = try TestServer()
        _ = try server.client.get("/api", headers: ["Host": "evil.example"])
        _ = try server.client.get("/api", headers: ["Host": "evil.example"])
        _ = try server.client.post("/api/simple", headers: ["Origin": "http://evil.example"])
        let metrics = try server.client.get("/metrics").text
        XCTAssertTrue(metrics.contains(#"bindery_refusals_total{reason="host_not_allowed"} 2"#), metrics)
        XCTAssertTrue(metrics.contains(#"bindery_refusals_total{reason="cross_origin"} 1"#), metrics)
    }

    // MARK: URLs

    func testANulOrControlCharacterInThePathIsRefusedNotCutShort() throws {
        let server = try TestServer()
        let id = try server.createSession()
        try assertError(try server.client.request("DELETE", "/api/simple/\(id)%00junk"), 400, "invalid_url")
        XCTAssertEqual(try server.client.get("/api/simple/\(id)").status, 200, "the session named before the NUL is still there")
        try assertError(try server.client.get("/index.html%00.txt"), 400, "invalid_url")
        let sessions = server.server.application.sessionCount
        try assertError(try server.client.post("/api/simple/%00/inputs/buttonTap"), 400, "invalid_url")
        XCTAssertEqual(server.server.application.sessionCount, sessions)
        try assertError(try server.client.get("/api/simple/\(id)%0A"), 400, "invalid_url")
        try assertError(try server.client.get("/api/simple/\(id)%7f"), 400, "invalid_url")
        try assertError(try server.client.get("/api/streams?sessions=simple/\(id)%00junk"), 400, "invalid_url")
        // A page's own query may carry a new line; only a NUL is refused there.
        XCTAssertEqual(try server.client.get("/index.html?note=a%0Ab").status, 200)
    }

    /// A raw NUL byte ends libmicrohttpd's copy of the target as a C string:
    /// what follows it must not be dropped silently.
    func testARawNulByteInTheRequestLineIsRefusedNotCutShort() throws {
        let server = try TestServer()
        let id = try server.createSession()
        let host = "Host: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n"
        try assertError(try server.client.raw("DELETE /api/simple/\(id)\u{0}junk HTTP/1.1\r\n\(host)"), 400, "invalid_url")
        XCTAssertEqual(try server.client.get("/api/simple/\(id)").status, 200, "the session named before the NUL is still there")
        let sessions = server.server.application.sessionCount
        try assertError(try server.client.raw("POST /api/simple/\u{0}/inputs/buttonTap HTTP/1.1\r\n\(host)"), 400, "invalid_url")
        try assertError(try server.client.raw("POST /api/simple\u{0}HTTP/1.1 HTTP/1.1\r\n\(host)"), 400, "invalid_url")
        try assertError(try server.client.raw("GET /index.html?a=\u{0} HTTP/1.1\r\n\(host)"), 400, "invalid_url")
        XCTAssertEqual(server.server.application.sessionCount, sessions, "nothing was created")
        XCTAssertEqual(try server.client.raw("GET /api/simple/\(id) HTTP/1.1\r\n\(host)").status, 200, "a line without a NUL")
        XCTAssertEqual(try server.client.raw("GET /api/simple/\(id) HTTP/1.1\n\(host)").status, 200, "a bare LF ends a line too")
    }
}

/// Every page runs the server's own scripts only, is framed by no other
/// site and leaks no URL; no response is sniffed into another type.
final class SecurityHeaderTests: XCTestCase {
    func testPagesCarryTheirPolicyAndEveryResponseNosniff() throws {
        let server = try TestServer()
        for path in ["/", "/simple.html", "/_bindery/v1/inspector.html"] {
            let page = try server.client.get(path)
            XCTAssertEqual(page.status, 200, path)
            let policy = try XCTUnwrap(page.header("Content-Security-Policy"), path)
            XCTAssertTrue(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"), policy)
            XCTAssertFalse(policy.contains("unsafe-inline"), policy)
            XCTAssertEqual(page.header("X-Frame-Options"), "DENY", path)
            XCTAssertEqual(page.header("Referrer-Policy"), "same-origin", path)
            XCTAssertEqual(page.header("X-Content-Type-Options"), "nosniff", path)
        }
        let id = try server.createSession()
        for response in [
            try server.client.get("/api"), try server.client.get("/_bindery/v1/bindery.js"),
            try server.client.post("/api/simple/\(id)/inputs/buttonTap"), try server.client.get("/nope.html"),
        ] {
            XCTAssertEqual(response.header("X-Content-Type-Options"), "nosniff")
            XCTAssertNil(response.header("Content-Security-Policy"), "only pages need a policy")
        }
    }

    func testThePolicyIsTheOperatorsToChange() throws {
        let custom = try TestServer { $0.contentSecurityPolicy = "default-src 'self' https://cdn.example" }
        XCTAssertEqual(try custom.client.get("/simple.html").header("Content-Security-Policy"), "default-src 'self' https://cdn.example")
        let none = try TestServer { $0.contentSecurityPolicy = "" }
        let page = try none.client.get("/simple.html")
        XCTAssertNil(page.header("Content-Security-Policy"))
        XCTAssertEqual(page.header("X-Frame-Options"), "DENY")
    }

    func testNoPageServedHasAnInlineScript() throws {
        // The policy forbids inline script: a page that had one would break under it.
        let server = try TestServer()
        let pages = try FileManager.default.contentsOfDirectory(atPath: TestServer.publicDirectory.path).filter { $0.hasSuffix(".html") }
        XCTAssertFalse(pages.isEmpty)
        for name in pages + ["_bindery/v1/inspector.html"] {
            let html = try server.client.get("/\(name)").text
            let scripts = html.components(separatedBy: "<script").dropFirst()
            for script in scripts {
                let tag = script.prefix { $0 != ">" }
                XCTAssertTrue(tag.contains("src="), "\(name) has an inline <script\(tag)>")
            }
            XCTAssertFalse(html.contains(" style=\""), "\(name) has an inline style attribute")
            XCTAssertNil(html.range(of: #" on[a-z]+=""#, options: .regularExpression), "\(name) has an inline event handler")
        }
    }
}
