import Bindery
import Foundation

/// The subscriptions of one multiplexed stream (`/api/streams`), read in turn
/// into one buffer: each subscription writes its session's line before each
/// of its items, and stops between two items when it has nothing more, so the
/// items of different sessions never interleave. It goes on after a session
/// ends, is over when every session has ended, and at once when one falls too
/// far behind (the client reopens with its last ids).
///
/// Threading: a value, read by its stream under the stream's lock.
struct MultiplexedFeeds {
    let subscriptions: [Subscription]
    /// Which have ended, how many have not, and which to ask first.
    private var ended: [Bool]
    private var remaining: Int
    private var next = 0
    /// A subscription was over for the stream's sake after bytes were written: the next read says so.
    private var over: Subscription.Ending?

    init(_ subscriptions: [Subscription]) {
        self.subscriptions = subscriptions
        ended = Array(repeating: false, count: subscriptions.count)
        remaining = subscriptions.count
    }

    /// Fills `buffer` from the subscriptions, starting with the one after the last that wrote.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Subscription.Read {
        if let over { return .over(over) }
        var written = 0, events = 0
        for step in 0..<subscriptions.count {
            let index = (next + step) % subscriptions.count
            guard !ended[index] else { continue }
            switch subscriptions[index].read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[written...])) {
            case .bytes(let count, let more):
                written += count
                events += more
                // Full, perhaps in the middle of an item: this one goes on next time.
                if written == buffer.count {
                    next = index
                    return .bytes(written, events: events)
                }
                next = index + 1
            case .idle:
                continue
            case .over(.ended):
                ended[index] = true
                remaining -= 1
            case .over(let ending):
                guard written > 0 else { return .over(ending) }
                over = ending
                return .bytes(written, events: events)
            }
        }
        if written > 0 { return .bytes(written, events: events) }
        return remaining == 0 ? .over(.ended) : .idle
    }
}
