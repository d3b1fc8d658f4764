/// The base64url alphabet, ASCII letters, digits, `-` and `_`: what session
/// ids and ViewModel names are made of, so that either can go into a URL, a
/// log line or an event stream's `session:` line as it is.
///
/// Checked on every request's path: over the string's bytes, not through
/// its generic views (those cost ten times as much).
package enum URLSafeName {
    /// Whether every byte of `text` is of the alphabet (true for "").
    package static func allows(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(allows)
    }

    /// Whether every byte of `text` is of the alphabet (true for "").
    package static func allows(_ text: Substring) -> Bool {
        var text = text
        return text.withUTF8(allows)
    }

    /// Whether every one of `bytes` is of the alphabet.
    package static func allows(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where !allows(byte) { return false }
        return true
    }

    /// Whether `byte` is of the alphabet.
    @inline(__always)
    package static func allows(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
