import Foundation
import XCTest

@testable import Bindery

final class EventLogTests: XCTestCase {
    private func json(_ text: String) -> Data { Data(text.utf8) }
    private static let plain = EventWireFormat(event: { _, _, json in Array(json) }, reset: { _ in [] }, end: [])

    func testSnapshotHoldsEachDriversLatestValueAndNoSignals() {
        var log = EventLog(retained: 16, format: Self.plain)
        _ = log.append(name: "color", kind: .driver, json: json("\"red\""))
        _ = log.append(name: "toast", kind: .signal, json: json("\"hi\""))
        let blue = log.append(name: "color", kind: .driver, json: json("\"blue\""))
        let title = log.append(name: "title", kind: .driver, json: json("\"t\""))
        XCTAssertEqual(log.snapshot, [blue, title])
        XCTAssertEqual(log.lastID, 4)
    }

    func testReplayAfterAnIDGivesChangedDriversAndEverySignalInOrder() {
        var log = EventLog(retained: 16, format: Self.plain)
        _ = log.append(name: "color", kind: .driver, json: json("1"))  // 1
        let toast1 = log.append(name: "toast", kind: .signal, json: json("1"))  // 2
        _ = log.append(name: "color", kind: .driver, json: json("2"))  // 3
        let toast2 = log.append(name: "toast", kind: .signal, json: json("2"))  // 4
        let color3 = log.append(name: "color", kind: .driver, json: json("3"))  // 5
        XCTAssertEqual(log.replay(after: 1), .events([toast1, toast2, color3]))
        XCTAssertEqual(log.replay(after: 4), .events([color3]))
        XCTAssertEqual(log.replay(after: 5), .events([]))
    }

    func testReplayResetsWhenTheIDIsGoneOrUnknown() {
        var log = EventLog(retained: 2, format: Self.plain)
        for value in 1...5 { _ = log.append(name: "color", kind: .driver, json: json("\(value)")) }
        XCTAssertEqual(log.replay(after: 3), .events([log.latest("color")!]), "ids 4 and 5 are retained")
        XCTAssertEqual(log.replay(after: 2), .reset(log.snapshot), "id 3 is gone")
        XCTAssertEqual(log.replay(after: 99), .reset(log.snapshot), "an id from the future (another server) resets")
        XCTAssertEqual(EventLog(retained: 4, format: Self.plain).replay(after: 0), .events([]))
    }

    func testUnreadIsEachChangedDriversLatestAndEverySignalOrNilOnceASignalIsForgotten() {
        var log = EventLog(retained: 3, format: Self.plain)
        let title = log.append(name: "title", kind: .driver, json: json("1"))  // 1
        let toast = log.append(name: "toast", kind: .signal, json: json("1"))  // 2
        _ = log.append(name: "color", kind: .driver, json: json("1"))  // 3
        let color = log.append(name: "color", kind: .driver, json: json("2"))  // 4
        XCTAssertEqual(log.unread(after: 4), [])
        XCTAssertEqual(log.unread(after: 3), [color])
        XCTAssertEqual(log.unread(after: 1), [toast, color])
        XCTAssertEqual(log.unread(after: 0), [title, toast, color], "title is forgotten but is its driver's latest")
        _ = log.append(name: "color", kind: .driver, json: json("3"))  // 5: the toast is forgotten
        XCTAssertNil(log.unread(after: 1))
        XCTAssertEqual(log.unread(after: 2), [log.latest("color")!])
    }

    func testEachEventIsEncodedOnceWithTheApplicationsEncoder() {
        let calls = Counter()
        var log = EventLog(
            retained: 4,
            format: EventWireFormat(
                event: { id, name, json in
                    calls.increment()
                    return Array("\(id) \(name) ".utf8) + json
                }, reset: { _ in [] }, end: []))
        let event = log.append(name: "backgroundColor", kind: .driver, json: json("\"blue\""))
        XCTAssertEqual(String(decoding: event.encoded, as: UTF8.self), "1 backgroundColor \"blue\"")
        _ = log.snapshot
        _ = log.replay(after: 0)
        XCTAssertEqual(calls.value, 1)
    }
}

/// A count shared with a `@Sendable` closure.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
