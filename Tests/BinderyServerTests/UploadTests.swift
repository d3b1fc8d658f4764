import Bindery
import BinderyLoopback
import Foundation
import XCTest

@testable import BinderyServer

/// Files sent to an input over the wire, to the real server: at, under and over
/// the input's limit, a type it does not take, a forged token, a repeat with its
/// key, a client that stops halfway or too slowly (nothing left on disk), and a
/// file far larger than the heap grows by while it arrives.
final class UploadTests: XCTestCase {
    private var folder: URL!
    private var server: TestServer!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("uploads-\(UUID().uuidString)")
        try startServer()
    }

    override func tearDown() {
        server = nil
        try? FileManager.default.removeItem(at: folder)
    }

    private func startServer(_ configure: @escaping (inout ServerConfiguration) -> Void = { _ in }) throws {
        server = nil
        server = try TestServer { [folder] configuration in
            configuration.uploadDirectory = folder
            configuration.uploads = [
                UploadRule(viewModel: "avatar", input: "photo", maxBytes: 1_000, contentTypes: ["image/png", "image/*"]),
                UploadRule(viewModel: "avatar", input: "remove", maxBytes: 64 << 20),
            ]
            configure(&configuration)
        }
    }

    /// A PNG's signature and then `count - 8` bytes.
    private func png(_ count: Int) -> Data { Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: count - 8) }

    private func upload(_ id: String, _ body: Data, type: String = "image/png", name: String? = "me.png", key: String? = nil) throws -> HTTPResponse {
        var headers = ["Content-Type": type]
        if let name { headers["X-Bindery-Filename"] = name }
        if let key { headers["Idempotency-Key"] = key }
        return try server.client.request("POST", "/api/avatar/\(id)/inputs/photo", headers: headers, body: body)
    }

    private var filesLeft: [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] }

    func testAFileAtUnderAndOverItsInputsLimit() throws {
        let id = try server.createSession("avatar")
        let at = try upload(id, png(1_000), name: "..%2F..%2Fetc%2Fme%0A.png")
        XCTAssertEqual(at.status, 200, at.text)
        let outputs = try XCTUnwrap(try at.json()["outputs"] as? [String: Any])
        XCTAssertEqual(outputs["caption"] as? String, "me.png, image/png, 1000 bytes", "the name is its last component, without control characters")
        XCTAssertTrue((outputs["image"] as? String)?.hasPrefix("data:image/png;base64,iVBORw0KGgo") == true)
        waitUntil("a file not moved goes once its input is answered (as its request ends)") { filesLeft.isEmpty }

        XCTAssertEqual(try upload(id, png(999)).status, 200)
        // Over, by its Content-Length: refused before its body.
        try assertError(try upload(id, png(1_001)), 413, "body_too_large")
        // Over, sent without a length (chunked): refused as it arrives, and nothing stays.
        let socket = try Socket(port: server.port)
        socket.write(
            Data("POST /api/avatar/\(id)/inputs/photo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/png\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
        for _ in 0..<3 { socket.write(Data("258\r\n".utf8) + png(600) + Data("\r\n".utf8)) }
        socket.write(Data("0\r\n\r\n".utf8))
        try assertError(try server.client.readResponse(socket), 413, "body_too_large")
        waitUntil("the part that arrived is deleted") { filesLeft.isEmpty }
        // The ViewModel checks the bytes: a text declared an image is taken by the server, refused by it.
        let lie = try upload(id, Data("not a picture at all".utf8), name: "cat.png")
        let problems = try XCTUnwrap((try lie.json()["outputs"] as? [String: Any])?["problems"] as? [String: String])
        XCTAssertEqual(problems, ["photo": "cat.png is not a PNG, JPEG, GIF or WebP image"])
    }

    func testOnlyAnAllowedInputsPathIsAnUpload() {
        let uploads = UploadReceiving(rules: [UploadRule(viewModel: "avatar", input: "photo", maxBytes: 10)], directory: folder)
        XCTAssertEqual(uploads.rule(for: "/api/avatar/abc/inputs/photo")?.input, "photo")
        for path in [
            "/api/avatar/a/b/inputs/photo", "/api/avatar//inputs/photo", "/api/avatars/x/inputs/photo", "/api/avatar/x/inputs/photos",
            "/api/avatar/x/inputs/photo/", "/api/avatar/x/outputs/photo", "/x/avatar/x/inputs/photo", "/api/avatar", "",
        ] {
            XCTAssertNil(uploads.rule(for: path), path)
        }
    }

    func testWhatTheInputDoesNotTakeIsRefusedWithItsReason() throws {
        let id = try server.createSession("avatar")
        try assertError(try upload(id, Data("text".utf8), type: "text/plain"), 415, "unsupported_media_type")
        XCTAssertEqual(try upload(id, png(100), type: "image/webp; charset=x").status, 200, "image/* takes any image, parameters aside")
        // JSON is a payload, not a file: one that names a file the server never received is refused.
        try assertError(try server.client.post("/api/avatar/\(id)/inputs/photo", json: #"{"bindery.upload":"/etc/passwd"}"#), 400, "invalid_payload")
        try assertError(try server.client.post("/api/avatar/\(id)/inputs/photo", json: #""a string""#), 400, "invalid_payload")
        // An input without a rule takes no file: the body is not JSON.
        let session = try server.createSession("simple")
        try assertError(
            try server.client.request("POST", "/api/simple/\(session)/inputs/buttonTap", headers: ["Content-Type": "image/png"], body: png(10)), 415,
            "unsupported_media_type")
        waitUntil("every file goes") { filesLeft.isEmpty }
    }

    func testARepeatWithItsKeyIsTheSameInputOnlyWithTheSameFile() throws {
        let id = try server.createSession("avatar")
        let first = try upload(id, png(200), key: "photo-1")
        XCTAssertEqual(first.status, 200)
        let again = try upload(id, png(200), key: "photo-1")
        XCTAssertEqual(again.status, 200)
        XCTAssertEqual(again.header("Idempotent-Replayed"), "true", "sent again with its key, not applied again")
        let other = try upload(id, png(201), key: "photo-1")
        XCTAssertEqual(other.status, 422, "the same key with another file is another input: \(other.text)")
        waitUntil("every file goes") { filesLeft.isEmpty }
    }

    func testAClientThatStopsHalfwayOrTooSlowlyLeavesNothingOnDisk() throws {
        let id = try server.createSession("avatar")
        var halfway: Socket? = try Socket(port: server.port)
        halfway?.write(
            Data(
                "POST /api/avatar/\(id)/inputs/photo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/png\r\nContent-Length: 900\r\n\r\n".utf8)
                + png(400))
        waitUntil("the file is being written") { filesLeft.count == 1 }
        halfway = nil  // closes it
        XCTAssertNil(halfway)
        waitUntil("the connection's end takes the file with it") { filesLeft.isEmpty }

        // The body deadline holds for an upload as for any body.
        try startServer { $0.bodyTimeout = .seconds(1) }
        let session = try server.createSession("avatar")
        let slow = try Socket(port: server.port)
        slow.write(
            Data(
                "POST /api/avatar/\(session)/inputs/photo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/png\r\nContent-Length: 900\r\n\r\n"
                    .utf8) + png(100))
        XCTAssertTrue(slow.isClosedByPeer(timeout: 10), "closed at the body deadline")
        waitUntil("and its file deleted") { filesLeft.isEmpty }
    }

    func testALargeFileGoesToDiskNotToMemory() throws {
        // 48 MiB to an input that takes 64 MiB, written 64 KiB at a time.
        let id = try server.createSession("avatar")
        let total = 48 << 20
        let socket = try Socket(port: server.port)
        socket.write(
            Data(
                "POST /api/avatar/\(id)/inputs/remove HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: \(total)\r\n\r\n"
                    .utf8))
        let piece = Data(repeating: 1, count: 64 << 10)
        let before = ProcessStats.heapBytesInUse
        var peak = before
        for index in 0..<(total / piece.count) {
            socket.write(piece)
            if index % 64 == 0 { peak = max(peak, ProcessStats.heapBytesInUse) }
        }
        XCTAssertLessThan(peak - before, 8 << 20, "the heap grew by \(peak - before) bytes for a \(total)-byte file")
        // `remove` takes no payload: the file, read to its end, is refused as one, and goes.
        let answer = try server.client.readResponse(socket)
        try assertError(answer, 400, "invalid_payload")
        waitUntil("and deleted") { filesLeft.isEmpty }
    }
}
