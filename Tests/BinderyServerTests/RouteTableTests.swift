import Bindery
import Foundation
import XCTest

@testable import BinderyServer

/// The route table (`APIRoute`) is the one list of protocol v1's routes: the router
/// matches by it, the OpenAPI document and the route labels are made from it, and
/// `docs/protocol.md` lists it, row for row.
final class RouteTableTests: XCTestCase {
    private static let protocolDocument = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/protocol.md")

    /// `| `GET` | `/api/<vm>` | what it answers |` rows of the document's route table.
    private func documentedRoutes() throws -> [String: String] {
        let text = try String(contentsOf: Self.protocolDocument, encoding: .utf8)
        var rows: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 5, cells[2].hasPrefix("`/api") else { continue }
            let method = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let path = cells[2].trimmingCharacters(in: CharacterSet(charactersIn: "`")).split(separator: "?")[0]
            rows["\(method) \(path)"] = cells[3]
        }
        return rows
    }

    func testTheProtocolDocumentListsEveryRouteAsTheTableSaysAndNoOther() throws {
        let documented = try documentedRoutes()
        var expected: [String: String] = [:]
        for route in APIRoute.allCases {
            for method in route.methods { expected["\(method) \(route.template)"] = route.answers[method] }
        }
        XCTAssertEqual(documented.count, expected.count, "the document's routes: \(documented.keys.sorted())")
        for (route, answer) in expected {
            XCTAssertEqual(documented[route], answer, "docs/protocol.md's row for \(route)")
        }
        for route in documented.keys where expected[route] == nil {
            XCTFail("docs/protocol.md lists \(route), which the route table does not have")
        }
    }

    func testEveryMethodOfARouteHasItsAnswerAndItsErrors() {
        for route in APIRoute.allCases {
            XCTAssertEqual(Set(route.answers.keys), Set(route.methods), "\(route)")
            XCTAssertEqual(Set(route.errorStatuses.keys), Set(route.methods), "\(route)")
        }
    }

    func testAPathMatchesItsRouteWithItsParameters() throws {
        func match(_ path: String) -> APIRoute.Match? { APIRoute.match(ArraySlice(path.split(separator: "/").map(String.init))) }
        XCTAssertEqual(match("")?.route, .catalog)
        XCTAssertEqual(match("openapi.json")?.route, .openAPI, "a word of the table before a ViewModel's name")
        XCTAssertEqual(match("streams")?.route, .streams)
        XCTAssertEqual(match("todos")?.route, .create)
        let input = try XCTUnwrap(match("todos/abc/inputs/add"))
        XCTAssertEqual(input.route, .input)
        XCTAssertEqual([input.viewModel, input.session, input.port], ["todos", "abc", "add"])
        XCTAssertEqual(match("todos/abc/outputs/items")?.route, .output)
        XCTAssertEqual(match("todos/abc/events")?.route, .events)
        XCTAssertEqual(match("todos/abc")?.route, .session)
        for path in ["todos/abc/event", "todos/abc/inputs", "todos/abc/inputs/add/more", "todos/abc/outputs"] {
            XCTAssertNil(match(path), path)
        }
    }

    func testTheOpenAPIDocumentHasEveryRouteForEveryViewModel() throws {
        final class Counter {
            let increment = PublishRelay<Void>()
            let count = BehaviorRelay(value: 0)
        }
        let application = Application()
        defer { application.stop() }
        application.register("counter") { _ in Counter() }
        let catalog = try XCTUnwrap(awaitCatalog(application))
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: OpenAPI.document(for: catalog, development: true)) as? [String: Any])
        let paths = try XCTUnwrap(document["paths"] as? [String: [String: Any]])
        let production = try XCTUnwrap(try JSONSerialization.jsonObject(with: OpenAPI.document(for: catalog)) as? [String: Any])
        XCTAssertNil((production["paths"] as? [String: Any])?["/api/counter/{sid}/test.swift"], "a session's test is a development server's only")
        for route in APIRoute.allCases {
            let path = route.template.replacingOccurrences(of: "<vm>", with: "counter").replacingOccurrences(of: "<sid>", with: "{sid}")
                .replacingOccurrences(of: "<name>", with: route == .input ? "increment" : "count")
            let operations = try XCTUnwrap(paths[path], "\(route): \(path)")
            XCTAssertEqual(Set(operations.keys.filter { $0 != "parameters" }), Set(route.methods.map { $0.lowercased() }), path)
        }
    }

    private func awaitCatalog(_ application: Application) -> Catalog? {
        let done = expectation(description: "catalog")
        let catalog = Locked<Catalog?>(nil)
        application.catalog { made in
            catalog.withLock { $0 = made }
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        return catalog.withLock { $0 }
    }
}
