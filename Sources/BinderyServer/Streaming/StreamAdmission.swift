import Bindery
import Foundation
import Synchronization

/// Counts open streams against the server-wide limit.
///
/// Thread safety: every method may be called from any thread.
final class StreamAdmission: Sendable {
    /// One admitted stream's place; given back once, by `release`.
    final class Ticket: Sendable {
        private let admission: StreamAdmission
        private let isReleased = Atomic<Bool>(false)

        fileprivate init(_ admission: StreamAdmission) { self.admission = admission }

        /// Gives the place back; later calls do nothing.
        func release() {
            guard !isReleased.exchange(true, ordering: .relaxed) else { return }
            admission.open.withLock { $0 -= 1 }
        }
    }

    private let open = Locked(0)
    /// The most streams open at once.
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// A place if one is free.
    func admit() -> Ticket? {
        let admitted = open.withLock { open in
            guard open < limit else { return false }
            open += 1
            return true
        }
        return admitted ? Ticket(self) : nil
    }

    /// The number of open streams.
    var count: Int { open.withLock { $0 } }
}
