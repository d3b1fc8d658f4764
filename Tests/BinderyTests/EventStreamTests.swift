import Foundation
import XCTest
@testable import Bindery

final class EventStreamTests: XCTestCase {
    private var log = EventLog(retained: 64)

    private func event(_ name: String, _ kind: OutputKind = .driver, _ value: String = "1") -> EncodedEvent {
        log.append(name: name, kind: kind, json: Data(value.utf8))
    }

    private func drain(_ stream: EventStream, chunk: Int = 4096) -> (String, EventStream.ReadResult) {
        var text = Data()
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let result = buffer.withUnsafeMutableBytes { stream.read(into: $0) }
            guard case .bytes(let count) = result else { return (String(decoding: text, as: UTF8.self), result) }
            text.append(contentsOf: buffer[0..<count])
        }
    }

    func testADriversNewerValueReplacesTheWaitingOneButSignalsAllStay() {
        let stream = EventStream(maxBufferedBytes: 10_000)
        stream.enqueue(event("color", .driver, "1"))
        stream.enqueue(event("toast", .signal, "\"a\""))
        stream.enqueue(event("color", .driver, "2"))
        stream.enqueue(event("toast", .signal, "\"b\""))
        stream.enqueue(event("color", .driver, "3"))
        let (text, result) = drain(stream)
        XCTAssertEqual(result, .idle)
        XCTAssertEqual(text, "id: 2\nevent: toast\ndata: \"a\"\n\nid: 4\nevent: toast\ndata: \"b\"\n\nid: 5\nevent: color\ndata: 3\n\n")
    }

    func testAHalfWrittenEventIsNeverReplaced() {
        let stream = EventStream(maxBufferedBytes: 10_000)
        stream.enqueue(event("color", .driver, "\"first\""))
        var buffer = [UInt8](repeating: 0, count: 5)
        XCTAssertEqual(buffer.withUnsafeMutableBytes { stream.read(into: $0) }, .bytes(5))
        stream.enqueue(event("color", .driver, "\"second\""))
        let (rest, _) = drain(stream)
        XCTAssertEqual(String(decoding: buffer, as: UTF8.self) + rest,
                       "id: 1\nevent: color\ndata: \"first\"\n\nid: 2\nevent: color\ndata: \"second\"\n\n")
    }

    func testAStreamThatCannotKeepUpIsClosedAndHoldsNothing() {
        let stream = EventStream(maxBufferedBytes: 200)
        for index in 0..<100 { stream.enqueue(event("toast", .signal, "\(index)")) }
        XCTAssertTrue(stream.overflowed)
        XCTAssertEqual(drain(stream).1, .ended)
    }

    func testDriversAloneNeverOverflowBecauseTheyCoalesce() {
        let stream = EventStream(maxBufferedBytes: 200)
        for index in 0..<10_000 { stream.enqueue(event("color", .driver, "\(index)")) }
        XCTAssertFalse(stream.overflowed)
        XCTAssertEqual(drain(stream).0, "id: 10000\nevent: color\ndata: 9999\n\n")
    }

    func testFinishWritesWhatWaitsThenTheLastWordThenEnds() {
        let stream = EventStream(maxBufferedBytes: 10_000)
        stream.enqueue(event("color"))
        stream.finish(last: "event: bindery.end\ndata: null\n\n")
        stream.enqueue(event("color"))
        let (text, result) = drain(stream, chunk: 7)
        XCTAssertEqual(text, "id: 1\nevent: color\ndata: 1\n\nevent: bindery.end\ndata: null\n\n")
        XCTAssertEqual(result, .ended)
    }

    func testOnReadyIsCalledForEveryArrivalAndForTheEnd() {
        let stream = EventStream(maxBufferedBytes: 10_000)
        var calls = 0
        stream.onReady = { calls += 1 }
        stream.enqueue(event("color"))
        stream.enqueue(raw: ": keep-alive\n\n")
        stream.close()
        stream.enqueue(event("color"))
        XCTAssertEqual(calls, 3)
        XCTAssertEqual(drain(stream).1, .ended)
    }
}
