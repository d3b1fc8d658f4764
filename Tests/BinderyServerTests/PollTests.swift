import BinderyLoopback
import Foundation
import XCTest

@testable import BinderyServer

/// The server as it runs where there is no epoll (macOS): libmicrohttpd on
/// poll(2) and the hang-up watcher on poll(2), run here on Linux so that the
/// path another platform takes is the one tested. (A client that closes an
/// idle stream is seen at once on both paths: `LimitTests`.)
final class PollTests: XCTestCase {
    private func pollServer(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        try TestServer {
            $0.socketWaiting = .poll
            configure(&$0)
        }
    }

    func testRequestsInputsAndStreamsWork() throws {
        let server = try pollServer()
        let id = try server.createSession()
        let stream = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        XCTAssertEqual(try stream.next(2).map(\.data), [#""red""#, #""Change to blue""#])
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap").status, 200)
        XCTAssertEqual(try stream.next(2).map(\.data), [#""blue""#, #""Change to purple""#])
    }

    func testManyStreamsOpenAndCloseAndEachClosedOneIsSeen() throws {
        let server = try pollServer { $0.heartbeat = .seconds(60) }
        let id = try server.createSession()
        var streams: [SSEClient] = []
        for _ in 0..<40 { streams.append(try SSEClient(port: server.port, path: "/api/simple/\(id)/events")) }
        for stream in streams { XCTAssertEqual(try stream.next(2).count, 2) }
        XCTAssertEqual(server.server.openStreams, 40)
        // Every other one closed: those, and only those, give their place back; the rest still stream.
        streams = streams.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        waitUntil("20 of 40 streams closed (\(server.server.openStreams) open)", timeout: 5) { server.server.openStreams == 20 }
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap").status, 200)
        for stream in streams { XCTAssertEqual(try stream.next(2).map(\.data), [#""blue""#, #""Change to purple""#]) }
        streams = []
        waitUntil("every stream closed (\(server.server.openStreams) open)", timeout: 5) { server.server.openStreams == 0 }
    }

    func testAStreamWhoseClientSendsMoreIsNotTakenForClosed() throws {
        let server = try pollServer { $0.heartbeat = .seconds(60) }
        let id = try server.createSession()
        let stream = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        XCTAssertEqual(try stream.next(2).count, 2)
        // Bytes after the request: readable, not closed. The stream goes on.
        stream.socket.write(Data("GET / HTTP/1.1\r\n".utf8))
        XCTAssertEqual(try server.client.post("/api/simple/\(id)/inputs/buttonTap").status, 200)
        XCTAssertEqual(try stream.next(2).map(\.data), [#""blue""#, #""Change to purple""#])
        XCTAssertEqual(server.server.openStreams, 1)
    }
}
