import Foundation
import Logging
import XCTest

@testable import Bindery
@testable import BinderyServer

/// The bytes of a stream as libmicrohttpd reads them, whatever the size of its
/// buffer: an event straight from the log, or taken and written over several reads.
final class EventStreamTests: XCTestCase {
    private let telemetry = Telemetry(logger: Logger(label: "test"), metrics: false)

    private func broadcast() -> Broadcast {
        Broadcast(log: EventLog(retained: 16, format: ServerSentEvents.format), maxBufferedBytes: 100_000)
    }

    private func writer(_ broadcast: Broadcast, prefix: String? = nil) throws -> EventStream {
        let admission = try XCTUnwrap(StreamAdmission(limit: 1).admit())
        guard let prefix else {
            return EventStream(
                session: "vm/s", subscription: broadcast.subscribe(initial: []) { _ in }, admission: admission,
                retryMilliseconds: 1000, telemetry: telemetry)
        }
        return EventStream(
            multiplexing: ["vm/s"], subscriptions: [broadcast.subscribe(initial: [], itemPrefix: Array(prefix.utf8)) { _ in }],
            preamble: [], admission: admission, retryMilliseconds: 1000, telemetry: telemetry)
    }

    /// Reads `writer` with a buffer of `size` bytes until it is idle: what it wrote, and how it stopped.
    private func drain(_ writer: EventStream, size: Int) -> (String, EventStream.Read) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: size)
        while true {
            let read = buffer.withUnsafeMutableBytes { writer.read(into: $0) }
            guard case .bytes(let count) = read else { return (String(decoding: bytes, as: UTF8.self), read) }
            XCTAssertLessThanOrEqual(count, size)
            bytes += buffer[..<count]
        }
    }

    private func publish(_ broadcast: Broadcast, _ name: String, _ json: String, _ kind: OutputKind = .driver) {
        _ = broadcast.publish(name: name, kind: kind, json: Data(json.utf8))
    }

    func testEachEventIsWrittenWholeWhateverTheBufferSize() throws {
        for size in [4096, 64, 7, 1] {
            let broadcast = broadcast(), writer = try writer(broadcast)
            XCTAssertEqual(drain(writer, size: size).0, "retry: 1000\n\n")
            publish(broadcast, "color", "\"red\"")
            XCTAssertEqual(drain(writer, size: size).0, "id: 1\nevent: color\ndata: \"red\"\n\n", "buffer of \(size)")
            publish(broadcast, "color", "\"green\"")
            publish(broadcast, "toast", "1", .signal)
            publish(broadcast, "color", "\"blue\"")
            XCTAssertEqual(
                drain(writer, size: size).0,
                "id: 3\nevent: toast\ndata: 1\n\nid: 4\nevent: color\ndata: \"blue\"\n\n", "taken together, buffer of \(size)")
            broadcast.finish()
            XCTAssertEqual(drain(writer, size: size).0, "event: bindery.end\ndata: null\n\n")
            XCTAssertEqual(drain(writer, size: size).1, .end)
        }
    }

    func testAnEventLargerThanTheBufferGoesOutOverSeveralReads() throws {
        let broadcast = broadcast(), writer = try writer(broadcast)
        _ = drain(writer, size: 4096)
        let large = "\"" + String(repeating: "x", count: 10_000) + "\""
        publish(broadcast, "text", large)
        XCTAssertEqual(drain(writer, size: 4096).0, "id: 1\nevent: text\ndata: \(large)\n\n")
    }

    func testAKeepAliveGoesOutWhenDueAndTheStreamHasNothingElse() throws {
        let broadcast = broadcast(), writer = try writer(broadcast)
        _ = drain(writer, size: 4096)
        XCTAssertTrue(drain(writer, size: 4096) == ("", .idle))
        writer.heartbeat()
        XCTAssertEqual(drain(writer, size: 4096).0, ": keep-alive\n\n")
        XCTAssertTrue(drain(writer, size: 4096) == ("", .idle))
    }

    func testAMultiplexedStreamOfOneSessionStartsEachItemWithItsLine() throws {
        let broadcast = broadcast(), writer = try writer(broadcast, prefix: "session: vm/s\n")
        _ = drain(writer, size: 4096)
        publish(broadcast, "color", "\"red\"")
        XCTAssertEqual(drain(writer, size: 4096).0, "session: vm/s\nid: 1\nevent: color\ndata: \"red\"\n\n")
    }

    func testAClosedStreamEnds() throws {
        let broadcast = broadcast(), writer = try writer(broadcast)
        publish(broadcast, "color", "\"red\"")
        writer.close(.clientLeft)
        XCTAssertTrue(drain(writer, size: 4096) == ("", .end))
    }

    func testAMultiplexedStreamNeverInterleavesTwoSessionsItemsWhateverTheBufferSize() throws {
        for size in [4096, 64, 7, 1] {
            let first = broadcast(), second = broadcast()
            let admission = try XCTUnwrap(StreamAdmission(limit: 1).admit())
            let stream = EventStream(
                multiplexing: ["vm/a", "vm/b"],
                subscriptions: [
                    first.subscribe(initial: [], itemPrefix: Array("session: vm/a\n".utf8)) { _ in },
                    second.subscribe(initial: [], itemPrefix: Array("session: vm/b\n".utf8)) { _ in },
                ],
                preamble: Array("event: bindery.gone\n\n".utf8), admission: admission, retryMilliseconds: 1000, telemetry: telemetry)
            XCTAssertEqual(drain(stream, size: size).0, "retry: 1000\n\nevent: bindery.gone\n\n")
            publish(first, "text", "\"" + String(repeating: "a", count: 100) + "\"")
            publish(second, "text", "\"" + String(repeating: "b", count: 100) + "\"")
            publish(first, "toast", "1", .signal)
            let items = drain(stream, size: size).0.components(separatedBy: "\n\n").filter { !$0.isEmpty }
            XCTAssertEqual(items.count, 3, "buffer of \(size)")
            for item in items {
                let lines = item.split(separator: "\n")
                let session = lines[0] == "session: vm/a" ? "a" : "b"
                XCTAssertTrue(lines[1...].allSatisfy { !$0.hasPrefix("session:") }, "one session's item whole: \(item)")
                if lines[2] == "event: text" { XCTAssertTrue(lines[3].contains(String(repeating: session, count: 100)), item) }
            }
            first.finish()
            XCTAssertEqual(drain(stream, size: size).0, "session: vm/a\nevent: bindery.end\ndata: null\n\n", "the other session goes on")
            publish(second, "toast", "2", .signal)
            XCTAssertEqual(drain(stream, size: size).0, "session: vm/b\nid: 2\nevent: toast\ndata: 2\n\n")
            second.finish()
            XCTAssertEqual(drain(stream, size: size).0, "session: vm/b\nevent: bindery.end\ndata: null\n\n")
            XCTAssertEqual(drain(stream, size: size).1, .end, "every session ended")
        }
    }

    func testAStreamWhoseEverySessionWasRefusedSaysSoAndEnds() throws {
        let admission = try XCTUnwrap(StreamAdmission(limit: 1).admit())
        let stream = EventStream(
            multiplexing: ["vm/a"], subscriptions: [], preamble: Array("event: bindery.gone\n\n".utf8),
            admission: admission, retryMilliseconds: 1000, telemetry: telemetry)
        XCTAssertTrue(drain(stream, size: 4096) == ("retry: 1000\n\nevent: bindery.gone\n\n", .end))
    }
}
