import BinderyLoopback
import XCTest

/// Bad input gets a clear JSON error and the right status, and disturbs nobody.
final class ErrorTests: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer { $0.maxBodyBytes = 1024 }
    }
    override func tearDown() { server = nil }

    func testUnknownViewModelSessionInputAndOutputAre404() throws {
        let id = try server.createSession()
        try assertError(try server.client.post("/api/nope"), 404, "unknown_view_model")
        try assertError(try server.client.get("/api/nope/\(id)"), 404, "unknown_view_model")
        let unknown = "AAAAAAAAAAAAAAAAAAAAAA"  // the form of an id, of no session
        try assertError(try server.client.get("/api/simple/\(unknown)"), 404, "unknown_session")
        try assertError(try server.client.get("/api/simple/\(unknown)/events"), 404, "unknown_session")
        try assertError(try server.client.post("/api/simple/\(id)/inputs/nope"), 404, "unknown_input")
        try assertError(try server.client.get("/api/simple/\(id)/outputs/nope"), 404, "unknown_output")
        try assertError(try server.client.get("/api/simple/\(id)/what/ever/else"), 404, "not_found")
    }

    func testAnOutputWithoutACurrentValueIs204AndASignalHasNone() throws {
        let id = try server.createSession("currency")  // nothing loaded until `reload`
        let empty = try server.client.get("/api/currency/\(id)/outputs/currencies")
        XCTAssertEqual(empty.status, 204, "the output exists; it has no value yet")
        XCTAssertTrue(empty.body.isEmpty)
        let signal = try server.client.get("/api/currency/\(id)/outputs/showCurrencyDetail")
        try assertError(signal, 404, "unknown_output")
        XCTAssertTrue((try signal.json()["message"] as? String ?? "").contains("is a signal"))
    }

    func testWhatCannotBeANameOrAnIdIs400() throws {
        let id = try server.createSession()
        for path in [
            "/api/simple/not-a-session", "/api/simple/\(id)x/events", "/api/simple/\(id.dropLast())", "/api/simple/\(id.dropLast())%21/outputs/buttonTitle",
        ] {
            try assertError(try server.client.get(path), 400, "invalid_session_id")
        }
        try assertError(try server.client.post("/api/simple/\(id.dropLast())~/inputs/buttonTap"), 400, "invalid_session_id")
        try assertError(try server.client.post("/api/simple%20x"), 400, "invalid_name")
        try assertError(try server.client.get("/api/\(String(repeating: "v", count: 65))/\(id)"), 400, "invalid_name")
        try assertError(try server.client.request("DELETE", "/api/s%C3%AFmple/\(id)"), 400, "invalid_name")
        XCTAssertEqual(try server.client.get("/api/simple/\(id)").status, 200)
    }

    func testMalformedAndWrongPayloadsAre400() throws {
        let id = try server.createSession()
        try assertError(try server.client.post("/api/simple/\(id)/inputs/buttonTap", json: "{"), 400, "malformed_json")
        try assertError(try server.client.post("/api/simple/\(id)/inputs/buttonTap", json: "[1,2]"), 400, "invalid_payload")
        // An input of no payload takes no body or null, as its schema says: not {}.
        try assertError(try server.client.post("/api/simple/\(id)/inputs/buttonTap", json: "{}"), 400, "invalid_payload")
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap", json: "null").status, 200)
    }

    func testCreationBodiesAreValidatedLikeInputs() throws {
        let sessions = server.server.application.sessionCount
        try assertError(try server.client.post("/api/simple", json: "{"), 400, "malformed_json")
        try assertError(try server.client.post("/api/simple", json: "[1]"), 400, "invalid_payload")
        let plain = try server.client.request("POST", "/api/simple", headers: ["Content-Type": "text/plain"], body: Data("{}".utf8))
        try assertError(plain, 415, "unsupported_media_type")
        // A parameter of the wrong type names the field, not Foundation's wording.
        let wrong = try server.client.post("/api/profile", json: #"{"userID": "seven"}"#)
        try assertError(wrong, 400, "invalid_payload")
        XCTAssertTrue((try wrong.json()["message"] as? String ?? "").contains("userID"), wrong.text)
        // None of them made a session; null and no body still do.
        XCTAssertEqual(server.server.application.sessionCount, sessions)
        XCTAssertEqual(try server.client.post("/api/simple", json: "null").status, 201)
        XCTAssertEqual(try server.client.post("/api/simple").status, 201)
        XCTAssertEqual(server.server.application.sessionCount, sessions + 2)
    }

    func testWrongMethodIs405WithAllow() throws {
        let id = try server.createSession()
        let put = try server.client.request("PUT", "/api/simple/\(id)")
        try assertError(put, 405, "method_not_allowed")
        XCTAssertEqual(put.header("Allow"), "GET, DELETE, HEAD")
        let getInput = try server.client.get("/api/simple/\(id)/inputs/buttonTap")
        try assertError(getInput, 405, "method_not_allowed")
        XCTAssertEqual(getInput.header("Allow"), "POST")
        try assertError(try server.client.request("DELETE", "/api"), 405, "method_not_allowed")
        try assertError(try server.client.post("/index.html"), 405, "method_not_allowed")
    }

    func testBodyOverTheLimitIs413() throws {
        let id = try server.createSession()
        let big = "\"" + String(repeating: "x", count: 4096) + "\""
        try assertError(try server.client.post("/api/simple/\(id)/inputs/buttonTap", json: big), 413, "body_too_large")
        try assertError(try server.client.post("/api/simple", json: big), 413, "body_too_large")
    }

    func testNonJSONBodyIs415() throws {
        let id = try server.createSession()
        let response = try server.client.post("/api/simple/\(id)/inputs/buttonTap", json: "a=b", headers: ["Content-Type": "application/x-www-form-urlencoded"])
        try assertError(response, 415, "unsupported_media_type")
    }

    func testCrossOriginWriteIs403() throws {
        let id = try server.createSession()
        let foreign = try server.client.post("/api/simple/\(id)/inputs/buttonTap", headers: ["Origin": "http://evil.example"])
        try assertError(foreign, 403, "cross_origin")
        try assertError(try server.client.request("DELETE", "/api/simple/\(id)", headers: ["Origin": "null"]), 403, "cross_origin")
        let sameOrigin = try server.client.post("/api/simple/\(id)/inputs/buttonTap", headers: ["Origin": "http://127.0.0.1:\(server.port)"])
        XCTAssertEqual(sameOrigin.status, 200)
    }

    func testGarbageOnTheWireDoesNotDisturbOtherSessions() throws {
        let id = try server.createSession()
        for garbage in [
            "\u{0}\u{1}\u{2}\r\n\r\n", "GET / HTTP/9.9\r\n\r\n", "POST /api/simple HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
            String(repeating: "A", count: 70_000) + "\r\n\r\n",
        ] {
            let socket = try Socket(port: server.port)
            socket.write(Data(garbage.utf8))
            _ = socket.isClosedByPeer(timeout: 2)
        }
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap").status, 200)
        XCTAssertEqual(try server.client.get("/api/simple/\(id)/outputs/backgroundColor").text, "\"blue\"")
    }
}
