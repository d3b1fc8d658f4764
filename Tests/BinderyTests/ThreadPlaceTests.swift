import Foundation
import XCTest

@testable import Bindery

/// A thread's place is its own, nests, and is marked only in debug builds (which
/// the tests are: every rule the server checks with one runs in every test).
final class ThreadPlaceTests: XCTestCase {
    private static let place = ThreadPlace("in the test's place")

    func testAPlaceIsMarkedForItsThreadOnlyAndNests() {
        let place = Self.place
        XCTAssertFalse(place.isCurrent)
        place.within {
            XCTAssertTrue(place.isCurrent)
            place.within { XCTAssertTrue(place.isCurrent) }
            XCTAssertTrue(place.isCurrent, "still inside the outer mark")
            let elsewhere = Locked<Bool?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                elsewhere.withLock { $0 = place.isCurrent }
                done.signal()
            }
            done.wait()
            XCTAssertEqual(elsewhere.withLock { $0 }, false, "another thread is not in it")
        }
        XCTAssertFalse(place.isCurrent)
    }

    func testAThrowLeavesThePlace() {
        struct Thrown: Error {}
        XCTAssertThrowsError(try Self.place.within { throw Thrown() })
        XCTAssertFalse(Self.place.isCurrent)
    }

    func testTheTestsAreADebugBuildSoTheRulesAreChecked() {
        #if DEBUG
            Self.place.within { XCTAssertTrue(Self.place.isCurrent) }
        #else
            XCTFail("the tests are built without DEBUG: no thread rule would be checked")
        #endif
    }
}
