/// The request line's target as the client sent it, before libmicrohttpd
/// decodes it: a NUL anywhere would cut the decoded path or argument short
/// (`/api/simple/<sid>%00junk` would name `<sid>`), and any other control
/// character in the path would reach a log line or the wire. Both are refused
/// before routing.
///
/// libmicrohttpd hands the target over as a C string, so a raw NUL byte in the
/// line ends it early, and what follows it is never seen here. The line is
/// `method SP target SP version`, and libmicrohttpd (0.9.75) ends the target by
/// writing a NUL over the space before the version: the target's C string
/// ends right before the version only if it held no NUL of its own
/// (`endsBeforeVersion`).
enum RequestTarget {
    /// What a look at the raw target found.
    struct Scan {
        /// Why the target is refused, or nil if it may be routed.
        let problem: String?
        /// Where the target's C string ends (its NUL), as an address.
        let end: UnsafeRawPointer
    }

    /// Whether a target whose C string ends at `end` reached the request
    /// line's version (the access handler's `version`, a pointer into the same
    /// line): false if a raw NUL cut it short.
    static func endsBeforeVersion(_ end: UnsafeRawPointer, version: UnsafePointer<CChar>) -> Bool {
        end + 1 == UnsafeRawPointer(version)
    }

    /// Looks at `target` up to its NUL.
    static func scan(_ target: UnsafePointer<CChar>) -> Scan {
        var byte = UnsafeRawPointer(target).assumingMemoryBound(to: UInt8.self)
        func refused(_ problem: String) -> Scan {
            while byte.pointee != 0 { byte += 1 }
            return Scan(problem: problem, end: UnsafeRawPointer(byte))
        }
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
                return Scan(problem: nil, end: UnsafeRawPointer(byte))
            case UInt8(ascii: "?"):
                inPath = false
            case UInt8(ascii: "%"):
                if let high = hexValue(byte[1]), let low = hexValue(byte[2]) {
                    let decoded = high << 4 | low
                    if decoded == 0 { return refused(nulProblem) }
                    if inPath, decoded < 0x20 || decoded == 0x7F { return refused("the URL's path carries a control character") }
                    byte += 2
                }
            case ..<0x20, 0x7F:
                return refused("the URL carries a control character")
            default:
                break
            }
            byte += 1
        }
    }

    /// Why a target with a NUL in it, raw or as `%00`, is refused.
    static let nulProblem = "the URL carries a NUL"

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
