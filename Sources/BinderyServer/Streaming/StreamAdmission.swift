import Foundation

/// Counts open streams against the server-wide limit.
final class StreamAdmission: @unchecked Sendable {
    private let lock = NSLock()
    private var open = 0
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Takes a place if one is free.
    func admit() -> Bool {
        lock.withLock {
            guard open < limit else { return false }
            open += 1
            return true
        }
    }

    /// Gives a place back.
    func release() { lock.withLock { open -= 1 } }

    /// The number of open streams.
    var count: Int { lock.withLock { open } }
}
