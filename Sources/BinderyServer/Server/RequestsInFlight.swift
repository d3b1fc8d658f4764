import Foundation

/// Requests in progress, counted so that stopping can wait for them to finish.
///
/// Thread safety: every method may be called from any thread.
final class RequestsInFlight: @unchecked Sendable {
    private let condition = NSCondition()
    private var count = 0

    /// A request began.
    func begin() { condition.withLock { count += 1 } }

    /// A request finished.
    func end() {
        condition.withLock {
            count -= 1
            if count == 0 { condition.broadcast() }
        }
    }

    /// The number of requests in progress.
    var inProgress: Int { condition.withLock { count } }

    /// Waits until no request is in progress or `deadline` passes; returns whether none is.
    func waitUntilIdle(before deadline: Date) -> Bool {
        condition.withLock {
            while count > 0 {
                if !condition.wait(until: deadline) { return count == 0 }
            }
            return true
        }
    }
}
