import Foundation

/// Counts open streams against the server-wide limit.
///
/// Thread safety: every method may be called from any thread.
final class StreamAdmission: @unchecked Sendable {
    /// One admitted stream's place; given back once, by `release`.
    final class Ticket: @unchecked Sendable {
        private let admission: StreamAdmission
        private let lock = NSLock()
        private var isReleased = false

        fileprivate init(_ admission: StreamAdmission) { self.admission = admission }

        /// Gives the place back; later calls do nothing.
        func release() {
            let first = lock.withLock { () -> Bool in
                defer { isReleased = true }
                return !isReleased
            }
            if first { admission.lock.withLock { admission.open -= 1 } }
        }
    }

    private let lock = NSLock()
    private var open = 0
    /// The most streams open at once.
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// A place if one is free.
    func admit() -> Ticket? {
        lock.withLock { () -> Ticket? in
            guard open < limit else { return nil }
            open += 1
            return Ticket(self)
        }
    }

    /// The number of open streams.
    var count: Int { lock.withLock { open } }
}
