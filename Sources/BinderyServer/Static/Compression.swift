import CCompression
import Foundation

/// A static body as a browser may ask for it: as it is, gzip (zlib) or Brotli,
/// each made once, the first time a browser accepts it, and only kept where it
/// is smaller. Text-like types only (JavaScript, CSS, HTML, JSON, SVG, text).
///
/// Thread safety: every method may be called from any thread.
final class EncodedBody: Sendable {
    enum Encoding: String, Sendable, CaseIterable {
        case brotli = "br"
        case gzip
    }

    let data: Data
    let etag: String
    private let compressed = Locked<[Encoding: Data?]>([:])

    init(data: Data, etag: String) {
        self.data = data
        self.etag = etag
    }

    /// Whether a body of `contentType` is worth compressing.
    static func compresses(_ contentType: String) -> Bool {
        contentType.hasPrefix("text/") || contentType.hasPrefix("application/javascript") || contentType.hasPrefix("application/json")
            || contentType.hasPrefix("image/svg+xml")
    }

    /// The body in `encoding`, made now if this is the first time; nil if it is not smaller.
    func body(in encoding: Encoding) -> Data? {
        if let known = compressed.withLock({ $0[encoding] }) { return known }
        let made: Data? =
            switch encoding {
            case .brotli: Compression.brotli(data)
            case .gzip: Compression.gzip(data)
            }
        let kept = made.flatMap { $0.count < data.count ? $0 : nil }
        compressed.withLock { $0[encoding] = kept }
        return kept
    }

    /// The encoding to send for `acceptEncoding` (`Accept-Encoding`): Brotli, else gzip, where
    /// the browser accepts it (a `q` of 0 refuses), with its body; nil for the body as it is.
    func negotiate(_ acceptEncoding: String?) -> (Encoding, Data)? {
        guard let acceptEncoding else { return nil }
        let accepted = Self.accepted(acceptEncoding)
        for encoding in Encoding.allCases where accepted.contains(encoding.rawValue) {
            if let body = body(in: encoding) { return (encoding, body) }
        }
        return nil
    }

    /// The codings `header` accepts (lower case), without those it gives `q=0`; `*` stands for any.
    static func accepted(_ header: String) -> Set<String> {
        var accepted: Set<String> = []
        var refused: Set<String> = []
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let name = parts.first, !name.isEmpty else { continue }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if q > 0 { accepted.insert(name) } else { refused.insert(name) }
        }
        if accepted.contains("*") {
            for encoding in Encoding.allCases where !refused.contains(encoding.rawValue) { accepted.insert(encoding.rawValue) }
        }
        return accepted.subtracting(refused)
    }

    /// The ETag of the body in `encoding`: another representation, another tag.
    func etag(for encoding: Encoding?) -> String {
        guard let encoding else { return etag }
        return String(etag.dropLast()) + "-" + encoding.rawValue + "\""
    }
}

/// gzip and Brotli at their highest settings: a static file is compressed once.
enum Compression {
    static func gzip(_ data: Data) -> Data? {
        var stream = z_stream()
        guard bindery_deflate_init_gzip(&stream, 9) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(data.count))) + 32)
        let result = data.withUnsafeBytes { input -> Int32 in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: UInt8.self).baseAddress)
            stream.avail_in = UInt32(data.count)
            return out.withUnsafeMutableBufferPointer { output in
                stream.next_out = output.baseAddress
                stream.avail_out = UInt32(output.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { return nil }
        return Data(out.prefix(Int(stream.total_out)))
    }

    static func brotli(_ data: Data) -> Data? {
        var size = BrotliEncoderMaxCompressedSize(data.count)
        guard size > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: size)
        let ok = data.withUnsafeBytes { input in
            out.withUnsafeMutableBufferPointer { output in
                BrotliEncoderCompress(
                    BROTLI_MAX_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, data.count, input.bindMemory(to: UInt8.self).baseAddress, &size,
                    output.baseAddress)
            }
        }
        guard ok == BROTLI_TRUE else { return nil }
        return Data(out.prefix(size))
    }
}
