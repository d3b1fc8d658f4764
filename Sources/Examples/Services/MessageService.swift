import Bindery
import Foundation

/// A message of the message list example.
struct Message: Codable, Equatable {
    let id: Int
    let text: String
}

/// Sends messages with simulated latency; an empty or too long text fails.
final class MessageService {
    private let scheduler: SchedulerType
    private let latency: RxTimeInterval
    private let lock = NSLock()
    /// Ids go on from its scheduler's time when the service was made, in
    /// milliseconds (from 1 on a test's virtual clock): a message sent after a
    /// restart never takes the id of one a session kept.
    private var nextID: Int

    init(scheduler: SchedulerType, latency: RxTimeInterval) {
        self.scheduler = scheduler
        self.latency = latency
        nextID = Int(scheduler.now.timeIntervalSince1970 * 1000) + 1
    }

    func send(_ text: String) -> Observable<Message> {
        delayed(latency, on: scheduler) { [self] in
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, trimmed.count <= 280 else { throw MessageError(description: "A message has 1 to 280 characters.") }
            return lock.withLock {
                defer { nextID += 1 }
                return Message(id: nextID, text: trimmed)
            }
        }
    }
}

/// Why sending failed.
struct MessageError: Error, Equatable, CustomStringConvertible {
    let description: String
}
