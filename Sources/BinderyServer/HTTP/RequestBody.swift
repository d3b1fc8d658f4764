import Foundation

/// The body of a request as it arrives, bounded: past the limit it is dropped.
///
/// Threading: used by its connection only, under the connection's lock.
final class RequestBody: @unchecked Sendable {
    private let limit: Int
    private(set) var data = Data()
    /// The body went over the limit; what still arrives is dropped.
    private(set) var isTooLarge = false

    init(limit: Int) { self.limit = limit }

    /// Adds a piece of the body, or drops it once over the limit.
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard !isTooLarge else { return }
        if data.count + bytes.count > limit {
            isTooLarge = true
            data = Data()
            return
        }
        data.append(contentsOf: bytes)
    }
}
