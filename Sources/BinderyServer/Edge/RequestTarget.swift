/// The request line's target as the client sent it, before libmicrohttpd
/// decodes it: a NUL anywhere would cut the decoded path or argument short
/// (`/api/simple/<sid>%00junk` would name `<sid>`), and any other control
/// character in the path would reach a log line or the wire. Both are refused
/// before routing.
enum RequestTarget {
    /// Why `target` is refused, or nil if it may be routed.
    static func problem(_ target: UnsafePointer<CChar>) -> String? {
        var index = 0
        var inPath = true
        while true {
            let byte = UInt8(bitPattern: target[index])
            if byte == 0 { return nil }
            if byte == UInt8(ascii: "?") { inPath = false }
            var decoded = byte
            if byte == UInt8(ascii: "%"), let high = hexValue(target[index + 1]), let low = hexValue(target[index + 2]) {
                decoded = high << 4 | low
                index += 2
            }
            if decoded == 0 { return "the URL carries a NUL (%00)" }
            if decoded < 0x20 || decoded == 0x7F, inPath || byte != UInt8(ascii: "%") {
                return "the URL's path carries a control character"
            }
            index += 1
        }
    }

    private static func hexValue(_ character: CChar) -> UInt8? {
        switch UInt8(bitPattern: character) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt8(bitPattern: character) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt8(bitPattern: character) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt8(bitPattern: character) - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
