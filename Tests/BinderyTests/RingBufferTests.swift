import XCTest

@testable import Bindery

final class RingBufferTests: XCTestCase {
    func testItKeepsTheNewestAndHandsBackWhatItDrops() {
        var ring = RingBuffer<Int>(capacity: 3)
        XCTAssertNil(ring.append(1))
        XCTAssertNil(ring.append(2))
        XCTAssertNil(ring.append(3))
        XCTAssertEqual(ring.append(4), 1)
        XCTAssertEqual(Array(ring), [2, 3, 4])
        XCTAssertEqual(ring.first, 2)
    }

    func testTheLastFewAreWalkedOldestFirstAcrossTheWrap() {
        var ring = RingBuffer<Int>(capacity: 4)
        for value in 1...6 { ring.append(value) }  // storage wraps: [5, 6, 3, 4]
        for (last, expected) in [(0, []), (1, [6]), (3, [4, 5, 6]), (4, [3, 4, 5, 6]), (99, [3, 4, 5, 6])] {
            var walked: [Int] = []
            ring.forEach(last: last) { walked.append($0) }
            XCTAssertEqual(walked, expected, "last \(last)")
        }
        var empty: [Int] = []
        RingBuffer<Int>(capacity: 2).forEach(last: 2) { empty.append($0) }
        XCTAssertEqual(empty, [])
    }
}
