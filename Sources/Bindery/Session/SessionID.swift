import Foundation

/// Session ids: 128 random bits. The server writes them as base64url without
/// padding (22 characters); a proxy in front of a cluster may name a new
/// session's id itself (`--session-id-from-proxy`), as nginx's `$request_id`
/// writes its 128 random bits: 32 lowercase hex digits.
package enum SessionID {
    /// Whether `text` has the form of a session id, of either writer: what
    /// the server checks before a client's id goes anywhere (a lookup, a log
    /// line, the wire).
    package static func isValid(_ text: String) -> Bool {
        isMadeHere(text) || isFromProxy(text)
    }

    /// Whether `text` has the form of an id `make()` writes.
    package static func isMadeHere(_ text: String) -> Bool {
        text.utf8.count == 22 && URLSafeName.allows(text)
    }

    /// Whether `text` has the form of a proxy's id: 32 lowercase hex digits.
    package static func isFromProxy(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in bytes.indices { bytes[index] = generator.next() }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
