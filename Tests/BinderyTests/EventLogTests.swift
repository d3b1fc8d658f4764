import Foundation
import XCTest
@testable import Bindery

final class EventLogTests: XCTestCase {
    private func json(_ text: String) -> Data { Data(text.utf8) }

    func testSnapshotHoldsEachDriversLatestValueAndNoSignals() {
        var log = EventLog(retained: 16)
        _ = log.append(name: "color", kind: .driver, json: json("\"red\""))
        _ = log.append(name: "toast", kind: .signal, json: json("\"hi\""))
        let blue = log.append(name: "color", kind: .driver, json: json("\"blue\""))
        let title = log.append(name: "title", kind: .driver, json: json("\"t\""))
        XCTAssertEqual(log.snapshot, [blue, title])
        XCTAssertEqual(log.lastID, 4)
    }

    func testReplayAfterAnIDGivesChangedDriversAndEverySignalInOrder() {
        var log = EventLog(retained: 16)
        _ = log.append(name: "color", kind: .driver, json: json("1"))       // 1
        let toast1 = log.append(name: "toast", kind: .signal, json: json("1")) // 2
        _ = log.append(name: "color", kind: .driver, json: json("2"))       // 3
        let toast2 = log.append(name: "toast", kind: .signal, json: json("2")) // 4
        let color3 = log.append(name: "color", kind: .driver, json: json("3")) // 5
        XCTAssertEqual(log.replay(after: 1), .events([toast1, toast2, color3]))
        XCTAssertEqual(log.replay(after: 4), .events([color3]))
        XCTAssertEqual(log.replay(after: 5), .events([]))
    }

    func testReplayResetsWhenTheIDIsGoneOrUnknown() {
        var log = EventLog(retained: 2)
        for value in 1...5 { _ = log.append(name: "color", kind: .driver, json: json("\(value)")) }
        XCTAssertEqual(log.replay(after: 3), .events([log.latest("color")!]), "ids 4 and 5 are retained")
        XCTAssertEqual(log.replay(after: 2), .reset(log.snapshot), "id 3 is gone")
        XCTAssertEqual(log.replay(after: 99), .reset(log.snapshot), "an id from the future (another server) resets")
        XCTAssertEqual(EventLog(retained: 4).replay(after: 0), .events([]))
    }

    func testEncodedEventBytesAreTheSSEWireFormat() {
        var log = EventLog(retained: 4)
        let event = log.append(name: "backgroundColor", kind: .driver, json: json("\"blue\""))
        XCTAssertEqual(String(decoding: event.bytes, as: UTF8.self), "id: 1\nevent: backgroundColor\ndata: \"blue\"\n\n")
    }
}
