import BinderyNetworking
import BinderyRxBlocking
import XCTest

/// RxCocoa's `URLSession.rx`, as ported code calls it, against the real server.
final class URLSessionRxTests: XCTestCase {
    func testJSONDataAndResponseOfARealServerAndItsRefusal() throws {
        let server = try TestServer()
        let base = "http://127.0.0.1:\(server.port)"
        let catalog = try XCTUnwrap(try URLSession.shared.rx.json(url: URL(string: "\(base)/api")!).toBlocking(timeout: 10).single() as? [String: Any])
        XCTAssertNotNil(catalog["viewModels"] as? [Any])

        var request = URLRequest(url: URL(string: "\(base)/api/simple")!)
        request.httpMethod = "POST"
        let (response, data) = try URLSession.shared.rx.response(request: request).toBlocking(timeout: 10).single()
        XCTAssertEqual(response.statusCode, 201)
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains(#""viewModel":"simple""#))

        XCTAssertThrowsError(try URLSession.shared.rx.data(request: URLRequest(url: URL(string: "\(base)/api/nope")!)).toBlocking(timeout: 10).single()) {
            guard case .httpRequestFailed(let response, let body)? = $0 as? RxCocoaURLError else { return XCTFail("\($0)") }
            XCTAssertEqual(response.statusCode, 404)
            XCTAssertTrue(String(decoding: body ?? Data(), as: UTF8.self).contains("unknown_view_model"), "the body comes with the error")
        }
        XCTAssertThrowsError(try URLSession.shared.rx.json(url: URL(string: "\(base)/simple.html")!).toBlocking(timeout: 10).single()) {
            guard case .deserializationError? = $0 as? RxCocoaURLError else { return XCTFail("\($0)") }
        }
    }
}
