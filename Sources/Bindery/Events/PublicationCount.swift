import Synchronization

/// How many events an application's sessions have published, counted where
/// they publish (one relaxed add) for whoever reports it: the server's
/// `/metrics` reads it when scraped.
package final class PublicationCount: Sendable {
    private let count = Atomic<UInt64>(0)

    package init() {}

    /// One more event published.
    func add() { count.add(1, ordering: .relaxed) }

    /// The events published so far.
    package var value: UInt64 { count.load(ordering: .relaxed) }
}
