import BinderyLoopback
import Foundation
import XCTest

@testable import BinderyServer

/// A session driven by hand, downloaded as a Swift test (development only):
/// every input with its payload and every output, in order, as
/// `ViewModelTestStore` calls. That the download compiles and passes as it is,
/// `script/test-starter` proves on the starter's own app.
final class RegressionTestTests: XCTestCase {
    func testASessionIsItsInputsAndOutputsInOrderAsATest() throws {
        let server = try TestServer { $0.runtime.recordsTranscripts = true }
        let id = try server.createSession("simple")
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap").status, 200)
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap", json: "null").status, 200)
        let answer = try server.client.get("/api/simple/\(id)/test.swift")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.header("Content-Type"), "text/x-swift; charset=utf-8")
        XCTAssertTrue(answer.header("Content-Disposition")?.hasPrefix("attachment; filename=\"simple-") ?? false)
        let swift = String(decoding: answer.body, as: UTF8.self)
        let calls = swift.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("store.") || $0.hasPrefix("let store") }
        XCTAssertEqual(
            calls,
            [
                "let store = try ViewModelTestStore { _ in SimpleViewModel() }",
                ##"store.receive(#"backgroundColor"#, json: #""red""#)"##,
                ##"store.receive(#"buttonTitle"#, json: #""Change to blue""#)"##,
                ##"store.send(#"buttonTap"#)"##,
                ##"store.receive(#"backgroundColor"#, json: #""blue""#)"##,
                ##"store.receive(#"buttonTitle"#, json: #""Change to purple""#)"##,
                ##"store.send(#"buttonTap"#)"##,
                ##"store.receive(#"backgroundColor"#, json: #""purple""#)"##,
                ##"store.receive(#"buttonTitle"#, json: #""Change to red""#)"##,
                "store.finish()",
            ], swift)
        XCTAssertTrue(swift.contains("@testable import Examples"), swift)
    }

    func testOnlyADevelopmentServerAnswersIt() throws {
        let server = try TestServer()
        let id = try server.createSession("simple")
        try assertError(try server.client.get("/api/simple/\(id)/test.swift"), 404, "not_found")
    }

    func testAStringBecomesARawLiteralWithEnoughHashes() {
        XCTAssertEqual(RegressionTest.literal(#"{"a":"b"}"#), ##"#"{"a":"b"}"#"##)
        XCTAssertEqual(RegressionTest.literal(##"say "#hi" \#n"##), ###"##"say "#hi" \#n"##"###)
        XCTAssertEqual(RegressionTest.literal("two\nlines"), ##"#"two\#nlines"#"##)
    }
}
