import Foundation

/// JSON written byte by byte where `JSONEncoder` would cost more than the work:
/// the strings of every snapshot, and the primitive values of outputs. Writes
/// exactly what `JSONEncoder.bindery` writes for the same values.
package enum JSONText {
    /// Appends `string` as a JSON string literal: `"`, `\` and control
    /// characters escaped, everything else (slashes, non-ASCII) as it is.
    package static func appendQuoted(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings (names, ids, words) need no escape: one scan of the
        // string's own bytes, one copy.
        var string = string
        let plain = string.withUTF8 { utf8 in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `string` as a JSON string literal.
    package static func quoted(_ string: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count + 2)
        appendQuoted(string, to: &bytes)
        return bytes
    }

    /// The encoding of values of `type` when it is a JSON primitive written
    /// directly (strings, booleans, integers); nil for anything else.
    package static func primitiveEncoding(for type: Any.Type) -> ((Any) -> Data)? {
        switch type {
        case is String.Type: return { Data(quoted($0 as! String)) }
        case is Bool.Type: return { ($0 as! Bool) ? Data("true".utf8) : Data("false".utf8) }
        case is Int.Type: return { Data(String($0 as! Int).utf8) }
        case is Int64.Type: return { Data(String($0 as! Int64).utf8) }
        case is Int32.Type: return { Data(String($0 as! Int32).utf8) }
        case is UInt.Type: return { Data(String($0 as! UInt).utf8) }
        case is UInt64.Type: return { Data(String($0 as! UInt64).utf8) }
        default: return nil
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
