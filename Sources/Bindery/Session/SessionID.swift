import Foundation

/// Session ids: 128 random bits, base64url without padding (22 characters).
package enum SessionID {
    /// Whether `text` has the form of a session id: what the server checks
    /// before a client's id goes anywhere (a lookup, a log line, the wire).
    package static func isValid(_ text: String) -> Bool {
        text.utf8.count == 22 && URLSafeName.allows(text)
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
