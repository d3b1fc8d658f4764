import BinderyLoopback
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Starting and stopping the server gives back everything it took.
final class LifecycleTests: XCTestCase {
    func testStartingAndStoppingFiftyTimesLeaksNoFileDescriptor() throws {
        // One round first: the process opens files of its own on first use.
        try round()
        let before = ProcessStats.current.openFileDescriptors
        for _ in 0..<50 { try round() }
        XCTAssertEqual(ProcessStats.current.openFileDescriptors, before, "file descriptors after 50 starts and stops")
    }

    /// A server with a session, an open stream and a keep-alive connection, stopped.
    private func round() throws {
        let server = try TestServer()
        let id = try server.createSession()
        let stream = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        XCTAssertEqual(try stream.next(2).count, 2)
        server.server.stop()
        XCTAssertNil(try stream.next(timeout: 5), "the stream ends at stop")
    }

    func testAfterStopThePortNoLongerAcceptsConnections() throws {
        let server = try TestServer()
        let port = server.port
        XCTAssertEqual(try server.client.get("/api").status, 200)
        server.server.stop()
        XCTAssertThrowsError(try Socket(port: port), "nothing listens on \(port) after stop")
    }

    func testStopIsIdempotentAndAServerCanBeStoppedBeforeItServedAnything() throws {
        let server = try TestServer()
        server.server.stop()
        server.server.stop()
    }
}
