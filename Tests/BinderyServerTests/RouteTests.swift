import XCTest
@testable import BinderyServer

/// How logs and metrics name a request's path.
final class RouteTests: XCTestCase {
    func testTheTemplateHidesTheSessionID() {
        let route = Route("/api/simple/3f2a/inputs/buttonTap")
        XCTAssertEqual(route.template, "/api/simple/{sid}/inputs/buttonTap")
        XCTAssertEqual(route.session, "3f2a")
        XCTAssertEqual(Route("/healthz").template, "/healthz")
        XCTAssertNil(Route("/api/simple").session)
    }

    func testAnInputsViewModelIsFoundOnlyInAnInputsPath() {
        XCTAssertEqual(Route("/api/simple/3f2a/inputs/buttonTap").inputViewModel, "simple")
        XCTAssertEqual(Route("//api/simple//3f2a/inputs/buttonTap/").inputViewModel, "simple", "empty segments are skipped, as the router skips them")
        for path in ["/api/simple/3f2a/events", "/api/simple/3f2a/inputs", "/api/simple/3f2a/inputs/a/b",
                     "/api/simple/3f2a/outputs/x", "/apix/simple/3f2a/inputs/a", "/", "", "/api/simple"] {
            XCTAssertNil(Route(path).inputViewModel, path)
        }
    }
}
