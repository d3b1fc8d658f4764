import Foundation
import XCTest
@testable import Bindery

/// The direct JSON writer must write exactly what `JSONEncoder.bindery` writes.
final class JSONTextTests: XCTestCase {
    private func encoded<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONEncoder.bindery.encode(value), as: UTF8.self)
    }

    func testStringsAreQuotedAsJSONEncoderQuotesThem() throws {
        let strings = ["", "plain", "with \"quotes\"", "back\\slash", "a/b", "tab\tnew\nline\rcr", "\u{8}\u{C}", "\u{0}\u{1}\u{1F}\u{7F}",
                       "é, ü, 漢字, 🎨", "\u{2028}\u{2029}", "</script>", String(repeating: "x", count: 1_000)]
        for string in strings {
            XCTAssertEqual(String(decoding: JSONText.quoted(string), as: UTF8.self), try encoded(string), "\(string.debugDescription)")
        }
    }

    func testPrimitivesAreWrittenAsJSONEncoderWritesThem() throws {
        func check<T: Encodable>(_ values: [T], file: StaticString = #filePath, line: UInt = #line) throws {
            let encode = try XCTUnwrap(JSONText.primitiveEncoding(for: T.self), file: file, line: line)
            for value in values {
                XCTAssertEqual(String(decoding: encode(value), as: UTF8.self), try encoded(value), file: file, line: line)
            }
        }
        try check(["Change to blue", "\"", ""])
        try check([true, false])
        try check([0, -1, 42, Int.max, Int.min])
        try check([Int64.max, Int64.min])
        try check([Int32.max, Int32.min])
        try check([UInt.max, 0])
        try check([UInt64.max])
        XCTAssertNil(JSONText.primitiveEncoding(for: Double.self), "floating point goes through JSONEncoder")
    }

    func testASnapshotIsCompactJSONWithItsOutputsInOrder() throws {
        let snapshot = Snapshot(sessionID: "a\"b", viewModel: "simple", lastEventID: 7,
                                outputs: [("backgroundColor", Data("\"blue\"".utf8)), ("title", Data("null".utf8))])
        XCTAssertEqual(String(decoding: snapshot.json, as: UTF8.self),
                       #"{"id":"a\"b","viewModel":"simple","lastEventId":7,"outputs":{"backgroundColor":"blue","title":null}}"#)
    }
}
