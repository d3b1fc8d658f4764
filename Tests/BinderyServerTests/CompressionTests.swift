import Foundation
import XCTest

@testable import BinderyServer

/// Static files as a browser asks for them: Brotli, gzip or as they are, by
/// `Accept-Encoding` (a `q` of 0 refuses), each version with its own `ETag` and a
/// 304 for it, `Vary: Accept-Encoding`; compressed once; pages never.
final class CompressionTests: XCTestCase {
    private let text = Data(String(repeating: "export function pick(value, path) { return value; }\n", count: 200).utf8)

    func testBothCompressionsRoundTripAndAreSmaller() throws {
        let gzip = try XCTUnwrap(Compression.gzip(text))
        XCTAssertLessThan(gzip.count, text.count / 10)
        XCTAssertEqual(Array(gzip.prefix(2)), [0x1F, 0x8B], "a gzip member")
        let brotli = try XCTUnwrap(Compression.brotli(text))
        XCTAssertLessThan(brotli.count, gzip.count)
    }
}

extension CompressionTests {
    func testNegotiation() throws {
        let body = EncodedBody(data: text, etag: "\"0123456789abcdef\"")
        XCTAssertEqual(body.negotiate("gzip")?.0, .gzip)
        XCTAssertEqual(body.negotiate("gzip, deflate, br")?.0, .brotli)
        XCTAssertEqual(body.negotiate("br;q=0, gzip;q=0.5")?.0, .gzip)
        XCTAssertNil(body.negotiate("identity"))
        XCTAssertNil(body.negotiate("*;q=0"))
        XCTAssertNil(body.negotiate(nil))
        XCTAssertEqual(body.negotiate("*")?.0, .brotli)
        XCTAssertEqual(body.etag(for: .gzip), "\"0123456789abcdef-gzip\"")
    }
}

extension CompressionTests {
    /// Over the wire: the client's files and the app's stylesheet as the browser asks, a 304 per
    /// version, and a page as it is, whatever the browser accepts.
    func testTheServerSendsWhatTheBrowserAcceptsAndPagesAsTheyAre() throws {
        let server = try TestServer()
        let client = server.client
        let plain = try client.get("/_bindery/v1/binding.js")
        XCTAssertNil(plain.header("Content-Encoding"))
        XCTAssertEqual(plain.header("Vary"), "Accept-Encoding")
        for (accept, encoding) in [("gzip, deflate, br", "br"), ("gzip", "gzip"), ("br;q=0, gzip", "gzip")] {
            let answer = try client.get("/_bindery/v1/binding.js", headers: ["Accept-Encoding": accept])
            XCTAssertEqual(answer.header("Content-Encoding"), encoding, accept)
            XCTAssertLessThan(answer.body.count, plain.body.count / 2, accept)
            let tag = try XCTUnwrap(answer.header("ETag"))
            XCTAssertTrue(tag.hasSuffix("-\(encoding)\""), tag)
            let again = try client.get("/_bindery/v1/binding.js", headers: ["Accept-Encoding": accept, "If-None-Match": tag])
            XCTAssertEqual(again.status, 304)
            XCTAssertEqual(again.header("Vary"), "Accept-Encoding")
            XCTAssertTrue(again.body.isEmpty)
        }
        let gzip = try client.get("/_bindery/v1/style.css", headers: ["Accept-Encoding": "gzip"])
        XCTAssertEqual(gzip.header("Content-Encoding"), "gzip")
        XCTAssertEqual(try Self.gunzip(gzip.body), try client.get("/_bindery/v1/style.css").body, "gzip gives back the file")
        // The app's own files too; a page never (it may hold what a request reflects beside a secret).
        let page = try client.get("/bindings.html", headers: ["Accept-Encoding": "gzip, br", "Accept": "text/html"])
        XCTAssertEqual(page.status, 200)
        XCTAssertNil(page.header("Content-Encoding"))
        let image = try client.get("/favicon.ico", headers: ["Accept-Encoding": "gzip, br"])
        XCTAssertEqual(image.header("Content-Encoding"), "br", "an SVG is text")
    }

    /// The modules `bindery.js` imports are content-addressed and cached for good; the
    /// files a page names are revalidated; a digest not this release's is never cached.
    func testTheClientsModulesAreCachedForGoodUnderTheirDigestAndTheEntryIsRevalidated() throws {
        let server = try TestServer()
        let client = server.client
        let entry = try client.get("/_bindery/v1/bindery.js")
        XCTAssertEqual(entry.header("Cache-Control"), "no-cache")
        let source = String(decoding: entry.body, as: UTF8.self)
        let digest = try XCTUnwrap(source.firstMatch(of: /from "\.\/([0-9a-f]{16})\/binding\.js"/)?.1, source)
        XCTAssertFalse(source.contains(#"from "./binding.js""#), "every import goes through the digest")
        let module = try client.get("/_bindery/v1/\(digest)/binding.js", headers: ["Accept-Encoding": "br"])
        XCTAssertEqual(module.status, 200)
        XCTAssertEqual(module.header("Cache-Control"), "public, max-age=31536000, immutable")
        XCTAssertEqual(module.header("Content-Encoding"), "br")
        XCTAssertEqual(try client.get("/_bindery/v1/\(digest)/binding.js").body, try client.get("/_bindery/v1/binding.js").body)
        // The worker, which feeds.js names relative to itself, is under the digest too.
        XCTAssertEqual(try client.get("/_bindery/v1/\(digest)/bindery-worker.js").status, 200)
        // Another release's digest (a page open across a deploy): this release's file, revalidated.
        let stale = try client.get("/_bindery/v1/0123456789abcdef/binding.js")
        XCTAssertEqual(stale.status, 200)
        XCTAssertEqual(stale.header("Cache-Control"), "no-cache")
        XCTAssertEqual(try client.get("/_bindery/v1/\(digest)/nope.js").status, 404)
        XCTAssertEqual(try client.get("/_bindery/v1/\(digest)/sub/binding.js").status, 404)
        // A change to any file is a new digest.
        XCTAssertEqual(ClientFiles().digest, String(digest))
    }

    /// `gunzip`, by the system's own tool: an independent check of what the server wrote.
    static func gunzip(_ data: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(data)
        try input.fileHandleForWriting.close()
        let result = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return result
    }
}
