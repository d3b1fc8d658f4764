/// A path's non-empty `/`-separated segments: what the router matches and
/// what logs and metrics name a route by.
///
/// One scan of the path's UTF-8 bytes, each segment made a `String` as it is
/// found: splitting the `UTF8View` and converting each piece cost five times
/// as much, on every request.
enum PathSegments {
    static func of(_ path: String) -> [String] {
        var path = path
        return path.withUTF8 { bytes in
            var segments: [String] = []
            segments.reserveCapacity(6)
            var index = 0
            while index < bytes.count {
                while index < bytes.count, bytes[index] == UInt8(ascii: "/") { index += 1 }
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "/") { index += 1 }
                if index > start {
                    segments.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                }
            }
            return segments
        }
    }
}
