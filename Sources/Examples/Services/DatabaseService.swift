import Bindery
import Foundation

/// A text waiting to be sent, or sent.
struct Outgoing: Codable, Equatable {
    let id: Int
    let text: String
}

/// Why an upload failed.
struct DatabaseError: Error, Equatable, CustomStringConvertible {
    let description: String
}

/// A remote database the sending list uploads to, with simulated latency.
/// It refuses a batch holding a text that contains "reject", so the error path can be seen.
final class DatabaseService {
    private let scheduler: SchedulerType
    private let latency: RxTimeInterval
    private let lock = NSLock()
    private var stored: [Outgoing] = []

    init(scheduler: SchedulerType, latency: RxTimeInterval) {
        self.scheduler = scheduler
        self.latency = latency
    }

    /// Stores `items` and emits them once stored.
    func upload(_ items: [Outgoing]) -> Observable<[Outgoing]> {
        delayed(latency, on: scheduler) { [self] in
            if let refused = items.first(where: { $0.text.localizedCaseInsensitiveContains("reject") }) {
                throw DatabaseError(description: "The database refused “\(refused.text)”.")
            }
            lock.withLock { stored += items }
            return items
        }
    }
}
