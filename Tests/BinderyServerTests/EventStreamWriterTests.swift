@testable import Bindery
@testable import BinderyServer
import Foundation
import Logging
import XCTest

/// The bytes of a stream as libmicrohttpd reads them, whatever the size of its
/// buffer: an event straight from the log, or taken and written over several reads.
final class EventStreamWriterTests: XCTestCase {
    private let telemetry = Telemetry(logger: Logger(label: "test"), metrics: false)

    private func broadcast() -> Broadcast {
        Broadcast(log: EventLog(retained: 16, encoder: ServerSentEvents.event), maxBufferedBytes: 100_000)
    }

    private func writer(_ broadcast: Broadcast, prefix: String? = nil) throws -> EventStreamWriter {
        let subscription = broadcast.subscribe(initial: []) { _ in }
        let admission = try XCTUnwrap(StreamAdmission(limit: 1).admit())
        guard let prefix else {
            return EventStreamWriter(session: "vm/s", subscription: subscription, admission: admission,
                                     retryMilliseconds: 1000, telemetry: telemetry)
        }
        return EventStreamWriter(sessions: ["vm/s"], feeds: [.init(prefix: Array(prefix.utf8), subscription: subscription)],
                                 admission: admission, retryMilliseconds: 1000, telemetry: telemetry)
    }

    /// Reads `writer` with a buffer of `size` bytes until it is idle: what it wrote, and how it stopped.
    private func drain(_ writer: EventStreamWriter, size: Int) -> (String, EventStreamWriter.Read) {
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
            XCTAssertEqual(drain(writer, size: size).0,
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
        writer.heartbeatDue = true
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
}
