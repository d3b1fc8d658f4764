import Foundation

/// What one request accumulates across libmicrohttpd's calls: its body, bounded.
final class RequestContext {
    private let limit: Int
    private(set) var body = Data()
    /// The body went over the limit; it is being drained and dropped.
    private(set) var isTooLarge = false
    /// A response was queued, or is being made (a 413 from `Content-Length` comes before the body).
    var hasResponded = false
    /// The response made off libmicrohttpd's threads, queued when the connection resumes.
    var response: Response?

    init(limit: Int) { self.limit = limit }

    /// Adds a piece of the body, or drops it once over the limit.
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard !isTooLarge, !hasResponded else { return }
        if body.count + bytes.count > limit {
            isTooLarge = true
            body = Data()
            return
        }
        body.append(contentsOf: bytes)
    }
}
