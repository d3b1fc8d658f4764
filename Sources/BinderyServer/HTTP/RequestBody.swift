import Foundation

/// The body of a request as it arrives, bounded: past the limit it is dropped.
/// An upload's body goes to its file as it comes (`UploadFile`), never to memory.
///
/// Threading: used by its connection only, under the connection's lock.
final class RequestBody: @unchecked Sendable {
    private let limit: Int
    private(set) var data = Data()
    /// Where an upload's body goes instead of `data`.
    let file: UploadFile?
    /// The body went over the limit; what still arrives is dropped.
    private(set) var isTooLarge = false

    init(limit: Int, file: UploadFile? = nil) {
        self.limit = limit
        self.file = file
    }

    /// Adds a piece of the body, or drops it once over the limit.
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard !isTooLarge else { return }
        if let file {
            if file.size + bytes.count > limit {
                isTooLarge = true
                file.delete()
            } else {
                file.write(bytes)
            }
            return
        }
        if data.count + bytes.count > limit {
            isTooLarge = true
            data = Data()
            return
        }
        data.append(contentsOf: bytes)
    }
}
