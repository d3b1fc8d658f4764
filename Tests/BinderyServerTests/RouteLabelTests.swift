import XCTest

@testable import BinderyServer

/// How logs and metrics name a request's path.
final class RouteLabelTests: XCTestCase {
    func testTheTemplateHidesTheSessionID() {
        let route = RouteLabel("/api/simple/3f2a/inputs/buttonTap")
        XCTAssertEqual(route.template, "/api/simple/{sid}/inputs/buttonTap")
        XCTAssertEqual(route.session, "3f2a")
        XCTAssertEqual(RouteLabel("/healthz").template, "/healthz")
        XCTAssertNil(RouteLabel("/api/simple").session)
    }

    func testAnInputsViewModelIsFoundOnlyInAnInputsPath() {
        XCTAssertEqual(RouteLabel("/api/simple/3f2a/inputs/buttonTap").inputViewModel, "simple")
        XCTAssertEqual(RouteLabel("//api/simple//3f2a/inputs/buttonTap/").inputViewModel, "simple", "empty segments are skipped, as the router skips them")
        for path in [
            "/api/simple/3f2a/events", "/api/simple/3f2a/inputs", "/api/simple/3f2a/inputs/a/b",
            "/api/simple/3f2a/outputs/x", "/apix/simple/3f2a/inputs/a", "/", "", "/api/simple",
        ] {
            XCTAssertNil(RouteLabel(path).inputViewModel, path)
        }
    }
}
