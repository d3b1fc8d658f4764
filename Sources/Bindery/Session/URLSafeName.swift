/// The base64url alphabet, ASCII letters, digits, `-` and `_`: what session
/// ids and ViewModel names are made of, so that either can go into a URL, a
/// log line or an event stream's `session:` line as it is.
package enum URLSafeName {
    /// Whether every byte of `text` is of the alphabet (true for "").
    package static func allows(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}
