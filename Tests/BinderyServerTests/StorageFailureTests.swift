import BinderyLoopback
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// An input whose write fails is answered as a failure, saying whether it
/// was applied, and never with the database's own words: a 2xx means the
/// change is on disk, whatever the disk does.
final class StorageFailureTests: XCTestCase {
    /// A real full disk: the database on a small tmpfs that a filler file
    /// fills up (mounting needs root, which CI has).
    func testAFullDiskIsAnswered507AndEveryAnsweredAddIsKeptAndNoOtherIs() throws {
        let disk = try SmallDisk(megabytes: 4)
        defer { disk.unmount() }
        let database = disk.path + "/bindery.sqlite"
        let server = try ServerProcess.serve(database: database, logLevel: "notice")
        let client = HTTPClient(port: server.port)
        let created = try client.post("/api/todos", json: #"{"list": "full"}"#)
        let id = try XCTUnwrap(created.json()["id"] as? String, created.text)
        let stream = try SSEClient(port: server.port, path: "/api/todos/\(id)/events")

        var answered: [String] = []
        var refusals: [HTTPResponse] = []
        func add(_ title: String) throws -> HTTPResponse {
            let response = try client.post("/api/todos/\(id)/inputs/add", json: "\"\(title)\"", headers: ["Idempotency-Key": title])
            if (200..<300).contains(response.status) { answered.append(title) } else { refusals.append(response) }
            return response
        }
        for index in 0..<20 { XCTAssertEqual(try add("before-\(index)").status, 200) }

        let filler = disk.fill()
        // The log may take a few more within the space it already has; not many.
        var index = 0
        while refusals.isEmpty, index < 5_000 {
            _ = try add("full-\(index)")
            index += 1
        }
        let refusal = try XCTUnwrap(refusals.first, "\(index) adds on a full disk, all answered 2xx")
        XCTAssertEqual(refusal.status, 507, refusal.text)
        let body = try refusal.json()
        XCTAssertEqual(body["error"] as? String, "storage_full")
        XCTAssertEqual(body["applied"] as? Bool, false)
        XCTAssertNotNil(refusal.header("Retry-After"))
        XCTAssertFalse(refusal.text.lowercased().contains("sqlite"), refusal.text)

        // Space again: the refused add, sent again with its key, is applied (it was not before), then the next.
        try FileManager.default.removeItem(atPath: filler)
        let again = try add("full-\(index - 1)")
        XCTAssertEqual(again.status, 200, again.text)
        XCTAssertNil(again.header("Idempotent-Replayed"), "applied now: the first was not")
        XCTAssertEqual(try add("after").status, 200)

        let metrics = try client.get("/metrics").text
        XCTAssertTrue(metrics.contains(#"bindery_inputs_failed_total{error="storage_full"}"#), metrics)
        var streamed = ""
        while let event = try? stream.next(timeout: 0.5) { streamed += "\(event)\n" }
        XCTAssertFalse(streamed.lowercased().contains("sqlite"), streamed)
        XCTAssertFalse(streamed.lowercased().contains("disk is full"), streamed)

        server.send(SIGTERM)
        XCTAssertEqual(server.waitForExit(timeout: 10), 0)
        XCTAssertTrue(server.standardError.contains("storage_full"), "the operator is told, with the cause: \(server.standardError.suffix(2_000))")
        XCTAssertTrue(server.standardError.contains("disk is full"), "the cause is logged")

        let restarted = try ServerProcess.serve(database: database, logLevel: "notice")
        let kept = try restarted.todoTitles("full")
        XCTAssertEqual(kept, answered, "exactly the adds answered 2xx, in order")
        restarted.send(SIGTERM)
        XCTAssertEqual(restarted.waitForExit(timeout: 10), 0)
    }

    /// A sign-in the disk cannot keep is refused 507 with no cookie (the browser stays
    /// signed out), and every sign-in answered 200 still signs its browser in after a restart.
    func testASignInAFullDiskCannotKeepIsRefused507WithoutACookie() throws {
        let disk = try SmallDisk(megabytes: 4)
        defer { disk.unmount() }
        let database = disk.path + "/bindery.sqlite"
        let server = try ServerProcess.serve(database: database, logLevel: "notice")
        let client = HTTPClient(port: server.port)
        let origin = ["Origin": "http://127.0.0.1:\(server.port)"]
        let form = #"{"login": "ada", "password": "correct horse"}"#
        let page = try XCTUnwrap(try client.post("/api/signin", headers: origin).json()["id"] as? String)
        XCTAssertEqual(try client.post("/api/signin/\(page)/inputs/register", json: form, headers: origin).status, 200)

        let filler = disk.fill()
        var tokens: [String] = []
        var refusal: HTTPResponse?
        // Each sign-in is a row more; a full disk takes a few within the space it has.
        for _ in 0..<200 {
            let answer = try client.post("/api/signin/\(page)/inputs/signIn", json: form, headers: origin)
            guard answer.status == 200 else {
                refusal = answer
                break
            }
            let cookie = try XCTUnwrap(answer.header("Set-Cookie"))
            tokens.append(String(cookie.dropFirst("bindery_signin=".count).prefix { $0 != ";" }))
        }
        let refused = try XCTUnwrap(refusal, "\(tokens.count) sign-ins on a full disk, all answered 200")
        XCTAssertEqual(refused.status, 507, refused.text)
        XCTAssertEqual(try refused.json()["error"] as? String, "storage_full")
        XCTAssertNil(refused.header("Set-Cookie"), "no cookie for a sign-in that is not kept")
        XCTAssertFalse(refused.text.lowercased().contains("sqlite"), refused.text)

        try FileManager.default.removeItem(atPath: filler)
        server.send(SIGTERM)
        XCTAssertEqual(server.waitForExit(timeout: 10), 0)
        let restarted = try ServerProcess.serve(database: database, logLevel: "notice")
        let again = HTTPClient(port: restarted.port)
        for token in tokens {
            let me = try again.post("/api/me", headers: ["Cookie": "bindery_signin=\(token)", "Origin": "http://127.0.0.1:\(restarted.port)"])
            XCTAssertEqual(me.status, 201, "a sign-in answered 200 is kept: \(me.text)")
        }
        restarted.send(SIGTERM)
        XCTAssertEqual(restarted.waitForExit(timeout: 10), 0)
    }
}

/// A tmpfs of a few megabytes of its own, for a disk that fills up for real.
struct SmallDisk {
    let path: String

    init(megabytes: Int) throws {
        guard geteuid() == 0 else { throw XCTSkip("mounting a small tmpfs needs root (CI runs as root)") }
        path = FileManager.default.temporaryDirectory.appendingPathComponent("small-disk-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(megabytes)m") == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: path)
            throw XCTSkip("cannot mount a tmpfs here: \(reason)")
        }
    }

    /// Fills what is left with a file; its path.
    func fill() -> String {
        let filler = path + "/filler"
        let fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let chunk = [UInt8](repeating: 0xAB, count: 4_096)
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        close(fd)
        return filler
    }

    func unmount() {
        umount2(path, Int32(MNT_DETACH))
        try? FileManager.default.removeItem(atPath: path)
    }
}
