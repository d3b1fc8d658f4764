import BinderyLoopback
import ExampleApp
import Foundation
import XCTest

@testable import BinderyServer

/// The very app the executable runs, started on a free loopback port. Its
/// server may be asked from any thread (a test's client threads do).
final class TestServer: @unchecked Sendable {
    let server: Server
    var port: UInt16 { server.port }
    var client: HTTPClient { HTTPClient(port: port) }

    static var publicDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Public")
    }

    init(_ configure: (inout ServerConfiguration) -> Void = { _ in }, register: (Application) -> Void = { _ in }) throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.publicDirectory = Self.publicDirectory
        configuration.databasePath = ":memory:"  // the catalog probes the todo list, which opens the database
        configure(&configuration)
        server = try ExampleApp.makeServer(configuration, register: register)
        try server.start()
    }

    deinit { server.stop() }

    /// Creates a session of `viewModel` (from loopback address `source`, if given) and returns its id.
    func createSession(_ viewModel: String = "simple", from source: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let response = try HTTPClient(port: port, from: source).post("/api/\(viewModel)")
        XCTAssertEqual(response.status, 201, response.text, file: file, line: line)
        return try XCTUnwrap(response.json()["id"] as? String, file: file, line: line)
    }
}

extension XCTestCase {
    /// Asserts that `response` is the JSON error `code` with `status` and a message.
    func assertError(_ response: HTTPResponse, _ status: Int, _ code: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(response.status, status, response.text, file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8", file: file, line: line)
        let json = try response.json()
        XCTAssertEqual(json["error"] as? String, code, response.text, file: file, line: line)
        XCTAssertFalse((json["message"] as? String ?? "").isEmpty, file: file, line: line)
    }

    /// Waits up to `timeout` for `condition`, then asserts it: for what the
    /// server does a moment after the client saw its cause (a client sees a
    /// stream's last bytes before libmicrohttpd reports the request done and
    /// its admission goes back; a closed socket is found at the next write).
    func waitUntil(
        _ what: @autoclosure () -> String, timeout: TimeInterval = 10, _ condition: () -> Bool,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertTrue(eventually(within: .milliseconds(Int(timeout * 1000)), condition), what(), file: file, line: line)
    }
}
