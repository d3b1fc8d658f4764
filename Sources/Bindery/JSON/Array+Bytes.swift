/// Appending text to a byte buffer in one copy: a `String`'s `utf8` view
/// appends byte by byte through the generic sequence path, which was a
/// measurable share of every snapshot and event (`script/instructions`).
extension Array where Element == UInt8 {
    /// Appends the UTF-8 bytes of `text`.
    package mutating func append(utf8 text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends the UTF-8 bytes of `text`.
    package mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// Appends `value` in decimal, without making a `String`.
    package mutating func append(decimal value: UInt64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
