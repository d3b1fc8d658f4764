import Foundation
import XCTest

@testable import Bindery

/// The direct JSON writer must write exactly what `JSONEncoder.bindery` writes.
final class JSONTextTests: XCTestCase {
    private func encoded<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONEncoder.bindery.encode(value), as: UTF8.self)
    }

    func testStringsAreQuotedAsJSONEncoderQuotesThem() throws {
        let strings = [
            "", "plain", "with \"quotes\"", "back\\slash", "a/b", "tab\tnew\nline\rcr", "\u{8}\u{C}", "\u{0}\u{1}\u{1F}\u{7F}",
            "é, ü, 漢字, 🎨", "\u{2028}\u{2029}", "</script>", String(repeating: "x", count: 1_000),
        ]
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

    private enum Color: String, Codable {
        case red
        case blue = "bl\"ue/\n"
    }
    private enum Level: Int, Codable {
        case low = -3
        case high = 7
    }
    private struct Wrapper: Encodable {
        let value: String
        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }
    private struct Twice: Encodable {
        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(1)
            try container.encode(2)
        }
    }
    private struct Nothing: Encodable {
        func encode(to encoder: Encoder) throws {}
    }
    private struct Point: Codable { let x: Int, y: Int }
    private enum Shape: Codable { case circle(radius: Int) }
    private struct Ratio: Encodable {
        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(0.5)
        }
    }
    private struct Stamp: Encodable {
        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(Date(timeIntervalSince1970: 0))
        }
    }

    func testSingleValuesAreWrittenAsJSONEncoderWritesThem() throws {
        func check<T: Encodable>(_ value: T, file: StaticString = #filePath, line: UInt = #line) throws {
            let json = try XCTUnwrap(SingleValueJSON.encode(value), "\(value) is one primitive", file: file, line: line)
            XCTAssertEqual(String(decoding: json, as: UTF8.self), try encoded(value), file: file, line: line)
        }
        try check(Color.red)
        try check(Color.blue)
        try check(Level.low)
        try check(Level.high)
        try check(Wrapper(value: "é \u{1} \\"))
        try check("plain")
        try check(true)
        try check(UInt8.max)
        try check(Int16.min)
        try check(Optional<String>.none)
    }

    func testEveryOtherShapeIsLeftToJSONEncoder() {
        XCTAssertNil(SingleValueJSON.encode(Point(x: 1, y: 2)), "keyed")
        XCTAssertNil(SingleValueJSON.encode([1, 2]), "unkeyed")
        XCTAssertNil(SingleValueJSON.encode(Shape.circle(radius: 1)), "an enum with associated values")
        XCTAssertNil(SingleValueJSON.encode(Twice()), "two values")
        XCTAssertNil(SingleValueJSON.encode(Nothing()), "no value")
        XCTAssertNil(SingleValueJSON.encode(Ratio()), "floating point")
        XCTAssertNil(SingleValueJSON.encode(Stamp()), "a date")
        XCTAssertNil(SingleValueJSON.encode(Optional("x")), "a wrapped value through the generic encode")
    }

    func testAnOutputOfAnyEncodableTypeIsWrittenAsJSONEncoderWritesIt() throws {
        func check<T: Encodable>(_ values: [T], file: StaticString = #filePath, line: UInt = #line) throws {
            guard case .json(let encode)? = OutputEncoding(T.self) else { return XCTFail("no JSON encoding", file: file, line: line) }
            for value in values {
                XCTAssertEqual(String(decoding: try encode(value), as: UTF8.self), try encoded(value), file: file, line: line)
            }
        }
        try check([Color.red, Color.blue])
        try check([Point(x: 1, y: 2), Point(x: -1, y: 0)])
        try check([Shape.circle(radius: 3)])
        try check([Ratio(), Ratio()])
        try check([Stamp()])
    }

    func testASnapshotIsCompactJSONWithItsOutputsInOrder() throws {
        let snapshot = Snapshot(
            sessionID: "a\"b", viewModel: "simple", lastEventID: 7,
            outputs: [("backgroundColor", Data("\"blue\"".utf8)), ("title", Data("null".utf8))])
        XCTAssertEqual(
            String(decoding: snapshot.json, as: UTF8.self),
            #"{"id":"a\"b","viewModel":"simple","lastEventId":7,"outputs":{"backgroundColor":"blue","title":null}}"#)
    }
}

/// Text appended to a byte buffer in one copy is the text.
final class ByteAppendingTests: XCTestCase {
    func testDecimalsStaticAndDynamicTextAppendAsTheirUTF8() {
        var bytes: [UInt8] = []
        for value: UInt64 in [0, 7, 10, 99, 100, 12_345, 1 << 32, UInt64.max] {
            bytes = []
            bytes.append(decimal: value)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), String(value))
        }
        bytes = []
        bytes.append(utf8: "id: ")
        bytes.append(utf8: "événement 🙂")
        bytes.append(utf8: String(repeating: "long ", count: 20))
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "id: événement 🙂" + String(repeating: "long ", count: 20))
    }
}
