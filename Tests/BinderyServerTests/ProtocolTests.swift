import BinderyLoopback
import XCTest

/// Protocol v1 over a real loopback socket: create → snapshot → input → changed snapshot.
final class ProtocolTests: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws { server = try TestServer() }
    override func tearDown() { server = nil }

    func testCatalogListsInputsAndOutputsWithKindsAndSchemas() throws {
        let response = try server.client.get("/api")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8")
        let viewModels = try XCTUnwrap(response.json()["viewModels"] as? [[String: Any]])
        let simple = try XCTUnwrap(viewModels.first { $0["name"] as? String == "simple" })
        let inputs = try XCTUnwrap(simple["inputs"] as? [[String: Any]])
        XCTAssertEqual(inputs.map { $0["name"] as? String }, ["buttonTap"])
        let outputs = try XCTUnwrap(simple["outputs"] as? [[String: Any]])
        XCTAssertEqual(outputs.map { $0["name"] as? String }, ["backgroundColor", "buttonTitle"])
        XCTAssertEqual(outputs.map { $0["kind"] as? String }, ["driver", "driver"])
        let colorSchema = try XCTUnwrap(outputs[0]["schema"] as? [String: Any])
        XCTAssertEqual(colorSchema["enum"] as? [String], ["red", "blue", "purple"])
    }

    func testCreateThenInputChangesTheSnapshot() throws {
        let created = try server.client.post("/api/simple")
        XCTAssertEqual(created.status, 201)
        let id = try XCTUnwrap(created.json()["id"] as? String)
        XCTAssertEqual(created.header("Location"), "/api/simple/\(id)")
        XCTAssertGreaterThanOrEqual(id.count, 22, "at least 128 bits")
        XCTAssertEqual(try created.json()["outputs"] as? [String: String], ["backgroundColor": "red", "buttonTitle": "Change to blue"])

        let snapshot = try server.client.get("/api/simple/\(id)")
        XCTAssertEqual(snapshot.status, 200)
        XCTAssertEqual(try snapshot.json()["viewModel"] as? String, "simple")
        XCTAssertEqual(try snapshot.json()["lastEventId"] as? Int, 2)

        let afterTap = try server.client.post("/api/simple/\(id)/inputs/buttonTap")
        XCTAssertEqual(afterTap.status, 200)
        XCTAssertEqual(try afterTap.json()["outputs"] as? [String: String], ["backgroundColor": "blue", "buttonTitle": "Change to purple"])
        XCTAssertEqual(try afterTap.json()["lastEventId"] as? Int, 4)

        XCTAssertEqual(try server.client.get("/api/simple/\(id)/outputs/backgroundColor").text, "\"blue\"")
        XCTAssertEqual(
            try server.client.get("/api/simple/\(id)").json()["outputs"] as? [String: String],
            ["backgroundColor": "blue", "buttonTitle": "Change to purple"])
    }

    func testVoidInputAcceptsNullAndEmptyBody() throws {
        let id = try server.createSession()
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap", json: "null").status, 200)
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap").status, 200)
        XCTAssertEqual(try server.client.get("/api/simple/\(id)/outputs/backgroundColor").text, "\"purple\"")
    }

    func testSessionsAreIndependent() throws {
        let first = try server.createSession(), second = try server.createSession()
        XCTAssertNotEqual(first, second)
        _ = try server.client.post("/api/simple/\(first)/inputs/buttonTap")
        XCTAssertEqual(try server.client.get("/api/simple/\(first)/outputs/backgroundColor").text, "\"blue\"")
        XCTAssertEqual(try server.client.get("/api/simple/\(second)/outputs/backgroundColor").text, "\"red\"")
    }

    func testDeleteDisposesTheSession() throws {
        let id = try server.createSession()
        XCTAssertEqual(try server.client.request("DELETE", "/api/simple/\(id)").status, 204)
        XCTAssertEqual(try server.client.get("/api/simple/\(id)").status, 404)
        XCTAssertEqual(try server.client.request("DELETE", "/api/simple/\(id)").status, 404)
    }

    func testOpenAPIDocumentDescribesEveryRoute() throws {
        let response = try server.client.get("/api/openapi.json")
        XCTAssertEqual(response.status, 200)
        let document = try response.json()
        XCTAssertEqual(document["openapi"] as? String, "3.1.0")
        let paths = try XCTUnwrap(document["paths"] as? [String: Any])
        XCTAssertNotNil(paths["/api/simple/{sid}/inputs/buttonTap"])
        XCTAssertNotNil(paths["/api/simple/{sid}/outputs/backgroundColor"])
        XCTAssertNotNil(paths["/api/simple/{sid}/events"])
        XCTAssertNotNil(paths["/api/streams"])
    }

    func testStaticFilesAreServedAndTraversalIsNot() throws {
        let index = try server.client.get("/")
        XCTAssertEqual(index.status, 200)
        XCTAssertEqual(index.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertTrue(index.text.contains("Bindery"))
        XCTAssertEqual(try server.client.get("/../Package.swift").status, 404)
        XCTAssertEqual(try server.client.get("/%2e%2e/Package.swift").status, 404)
        XCTAssertEqual(try server.client.get("/.git/config").status, 404)
        XCTAssertEqual(try server.client.get("/nope.html").json()["error"] as? String, "not_found")
    }

    func testTheClientIsServedFromItsReservedVersionedPathWithValidators() throws {
        let script = try server.client.get("/_bindery/v1/bindery.js")
        XCTAssertEqual(script.status, 200)
        XCTAssertEqual(script.header("Content-Type"), "text/javascript; charset=utf-8")
        XCTAssertEqual(script.header("Cache-Control"), "no-cache")
        XCTAssertTrue(script.text.contains("export async function connect"))
        let etag = try XCTUnwrap(script.header("ETag"))
        let again = try server.client.get("/_bindery/v1/bindery.js", headers: ["If-None-Match": etag])
        XCTAssertEqual(again.status, 304)
        XCTAssertTrue(again.body.isEmpty)
        XCTAssertEqual(again.header("ETag"), etag)
        XCTAssertEqual(try server.client.get("/_bindery/v1/bindery.js", headers: ["If-None-Match": "\"other\""]).status, 200)
        XCTAssertEqual(try server.client.get("/_bindery/v1/inspector.html").status, 200)
        XCTAssertEqual(try server.client.get("/_bindery/v1/style.css").header("Content-Type"), "text/css; charset=utf-8")
        XCTAssertEqual(try server.client.get("/_bindery/v0/bindery.js").json()["error"] as? String, "not_found")
        XCTAssertEqual(try server.client.get("/_bindery/v1/../../Package.swift").status, 404)
        XCTAssertEqual(try server.client.get("/_bindery/v1/.hidden").status, 404)
        XCTAssertEqual(try server.client.post("/_bindery/v1/bindery.js").status, 405)
    }

    func testAnAppsOwnCopyOfAClientFileWins() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-override-\(UUID())")
        let own = folder.appendingPathComponent("_bindery/v1")
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("/* pinned */".utf8).write(to: own.appendingPathComponent("bindery.js"))
        let pinned = try TestServer { $0.publicDirectory = folder }
        XCTAssertEqual(try pinned.client.get("/_bindery/v1/bindery.js").text, "/* pinned */")
        XCTAssertEqual(try pinned.client.get("/_bindery/v1/style.css").status, 200)
    }
}
