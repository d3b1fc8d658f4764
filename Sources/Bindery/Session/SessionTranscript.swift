import Foundation

/// What a session received and sent, in order, kept in development
/// (`RuntimeConfiguration.recordsTranscripts`) so that a session driven by hand
/// can be replayed as a test (`BinderyServer`'s regression test): the ViewModel's
/// type, its creation parameters, each input with its payload, and each output
/// value as a test store receives it (a keyed list whole, a child ViewModel as
/// its type). At most `capacity` entries; past them it stops, and says so.
///
/// Threading: confined to its session's turns.
package final class SessionTranscript: @unchecked Sendable {
    package enum Entry: Sendable, Equatable {
        case input(name: String, payload: Data)
        case output(name: String, json: Data)
    }

    /// The ViewModel's type, as Swift names it (`Counter.CounterViewModel`).
    package var viewModelType = ""
    package let parameters: Data
    package private(set) var entries: [Entry] = []
    /// Whether entries were left out, past `capacity`.
    package private(set) var isTruncated = false
    private let capacity: Int

    package init(parameters: Data, capacity: Int = 2_000) {
        self.parameters = parameters
        self.capacity = capacity
    }

    func record(_ entry: Entry) {
        guard entries.count < capacity else { return isTruncated = true }
        entries.append(entry)
    }
}
