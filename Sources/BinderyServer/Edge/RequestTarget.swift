/// The request line's target as the client sent it, before libmicrohttpd
/// decodes it: a NUL anywhere would cut the decoded path or argument short
/// (`/api/simple/<sid>%00junk` would name `<sid>`), and any other control
/// character in the path would reach a log line or the wire. Both are refused
/// before routing.
enum RequestTarget {
    /// Why `target` is refused, or nil if it may be routed.
    static func problem(_ target: UnsafePointer<CChar>) -> String? {
        var byte = UnsafeRawPointer(target).assumingMemoryBound(to: UInt8.self)
        var inPath = true
        while true {
            let value = byte.pointee
            // Nearly every byte of a target: above `%`, and neither `?` nor DEL.
            if value > UInt8(ascii: "%"), value != UInt8(ascii: "?"), value != 0x7F {
                byte += 1
                continue
            }
            switch value {
            case 0:
                return nil
            case UInt8(ascii: "?"):
                inPath = false
            case UInt8(ascii: "%"):
                if let high = hexValue(byte[1]), let low = hexValue(byte[2]) {
                    let decoded = high << 4 | low
                    if decoded == 0 { return "the URL carries a NUL (%00)" }
                    if inPath, decoded < 0x20 || decoded == 0x7F { return "the URL's path carries a control character" }
                    byte += 2
                }
            case ..<0x20, 0x7F:
                return "the URL carries a control character"
            default:
                break
            }
            byte += 1
        }
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
