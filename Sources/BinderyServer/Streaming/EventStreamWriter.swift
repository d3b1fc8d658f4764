import Bindery
import Foundation

/// The bytes of one event stream: `retry:` first, then the items of its
/// subscriptions as server-sent events, and a keep-alive comment when one is due.
///
/// A stream of one session (`/api/<vm>/<sid>/events`) has one feed and writes
/// its items as they are encoded. A multiplexed stream (`/api/streams`) has a
/// feed per session and starts each item with its session's prefix line
/// (`session: <vm>/<sid>`); it takes from its feeds in turn, goes on after a
/// session ends, and ends when every session has ended, or at once when one
/// falls too far behind (the client reopens with its last ids).
///
/// It holds what the stream owns, the subscriptions and the admission, and
/// `close` gives them back, once, whichever way the stream ends.
///
/// Threading: used by its connection only, under the connection's lock.
final class EventStreamWriter: @unchecked Sendable {
    /// What `read` produced.
    enum Read: Equatable {
        /// This many bytes were written.
        case bytes(Int)
        /// Nothing now: a subscription wakes its reader, or a keep-alive comes due.
        case idle
        /// The stream is over.
        case end
    }

    /// One session's subscription, and what goes before each of its items.
    struct Feed {
        let prefix: [UInt8]
        let subscription: Subscription
    }

    private let feeds: [Feed]
    /// The sessions streamed (`<vm>/<sid>`), the telemetry told of its life, and its counts.
    private let sessions: [String]
    private let telemetry: Telemetry
    private let opened = ContinuousClock.now
    private var eventsWritten = 0
    private var bytesWritten = 0
    /// How the stream ended, when the stream itself saw it (an end, an overflow).
    private var ending: StreamEnding?
    /// The subscription of a one-feed stream, read without the turns' bookkeeping.
    private let only: Subscription?
    private let admission: StreamAdmission.Ticket
    /// Where writing is: `read` works on it as a local, because every in-place
    /// change to a class's property costs a runtime exclusivity check.
    private struct Cursor {
        /// Items taken from the subscription of feed `feed`, written in order.
        var outbox: [Subscription.Item] = []
        var index = 0
        var feed = 0
        /// The bytes being written and how far.
        var current: [UInt8] = []
        var offset = 0
        var endsAfterCurrent = false
    }
    private var cursor = Cursor()
    /// Which feeds have ended, how many have not, and which one to ask first:
    /// apart from the cursor, which is swapped in and out on every read.
    private struct Turns {
        var ended: [Bool]
        var remaining: Int
        var next = 0
    }
    private var turns: Turns
    private var isClosed = false
    /// A keep-alive comment goes out the next time the stream has nothing else.
    var heartbeatDue = false

    /// The stream of one session, `<vm>/<sid>`.
    convenience init(session: String, subscription: Subscription, admission: StreamAdmission.Ticket, retryMilliseconds: Int, telemetry: Telemetry) {
        self.init(sessions: [session], feeds: [Feed(prefix: [], subscription: subscription)], admission: admission,
                  retryMilliseconds: retryMilliseconds, telemetry: telemetry)
    }

    /// A stream of `feeds` (of `sessions`, some perhaps refused in `preamble`), starting with `preamble` after `retry:`.
    init(sessions: [String], feeds: [Feed], preamble: [UInt8] = [], admission: StreamAdmission.Ticket, retryMilliseconds: Int, telemetry: Telemetry) {
        self.sessions = sessions
        self.telemetry = telemetry
        telemetry.streamOpened(sessions)
        self.feeds = feeds
        only = feeds.count == 1 ? feeds[0].subscription : nil
        self.admission = admission
        turns = Turns(ended: Array(repeating: false, count: feeds.count), remaining: feeds.count)
        cursor.current = ServerSentEvents.retry(milliseconds: retryMilliseconds) + preamble
        cursor.endsAfterCurrent = feeds.isEmpty
    }

    /// Makes `reader` the one every subscription wakes.
    func attach(_ reader: any SubscriptionReader) {
        for feed in feeds { feed.subscription.reader = reader }
    }

    /// Fills `buffer` with what the stream has, up to its size.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        guard !isClosed else { return .end }
        var cursor = Cursor()
        swap(&cursor, &self.cursor)
        defer { swap(&cursor, &self.cursor) }
        var written = 0
        while written < buffer.count {
            if cursor.offset < cursor.current.count {
                let count = min(cursor.current.count - cursor.offset, buffer.count - written)
                cursor.current.withUnsafeBytes { source in
                    buffer.baseAddress!.advanced(by: written).copyMemory(from: source.baseAddress!.advanced(by: cursor.offset), byteCount: count)
                }
                cursor.offset += count
                written += count
                continue
            }
            if cursor.endsAfterCurrent { break }
            if cursor.index < cursor.outbox.count {
                let item = cursor.outbox[cursor.index]
                cursor.index += 1
                if case .event = item { eventsWritten += 1 }
                let prefix = feeds[cursor.feed].prefix
                cursor.current = prefix.isEmpty ? ServerSentEvents.encode(item) : prefix + ServerSentEvents.encode(item)
                cursor.offset = 0
                if case .end = item, only != nil || end(feed: cursor.feed) {
                    cursor.endsAfterCurrent = true
                    ending = .sessionEnded
                }
                continue
            }
            // What was written goes out first; the next call takes what came meanwhile.
            if written > 0 { break }
            // Emptied one by one: removeAll(keepingCapacity:) takes a slow generic path.
            while cursor.outbox.popLast() != nil {}
            cursor.index = 0
            switch take(into: &cursor) {
            case .items:
                continue
            case .idle where heartbeatDue:
                heartbeatDue = false
                cursor.current = ServerSentEvents.keepAlive
                cursor.offset = 0
                continue
            case .idle:
                break
            case .over(let over):
                cursor.endsAfterCurrent = true
                ending = over == .overflow ? .overflow : .sessionEnded
            }
            break
        }
        if written > 0 {
            bytesWritten += written
            return .bytes(written)
        }
        if bytesWritten > bytesCounted { report() }
        return cursor.endsAfterCurrent ? .end : .idle
    }

    /// Takes from the feeds in turn, from the one after the last that had items.
    private func take(into cursor: inout Cursor) -> Subscription.Take {
        // One session's stream: its subscription's answer is the stream's (its
        // `.end` item ended the stream before this could be asked again).
        if let only { return only.take(into: &cursor.outbox) }
        for step in 0..<feeds.count {
            let index = (turns.next + step) % feeds.count
            guard !turns.ended[index] else { continue }
            switch feeds[index].subscription.take(into: &cursor.outbox) {
            case .items:
                cursor.feed = index
                turns.next = index + 1
                return .items
            case .idle:
                continue
            case .over(.ended):
                _ = end(feed: index)
            case .over(let ending):
                return .over(ending)
            }
        }
        return turns.remaining == 0 ? .over(.ended) : .idle
    }

    /// Feed `index` has ended; true if it was the last, so the stream ends after the current bytes.
    private func end(feed index: Int) -> Bool {
        if !turns.ended[index] {
            turns.ended[index] = true
            turns.remaining -= 1
        }
        return turns.remaining == 0
    }

    /// Ends the stream and gives back its subscriptions and admission; the next
    /// read ends it. `reason` is why, unless the stream saw its own end first.
    func close(_ reason: StreamEnding) {
        guard !isClosed else { return }
        isClosed = true
        cursor = Cursor()
        for feed in feeds { feed.subscription.cancel() }
        admission.release()
        telemetry.delivered(events: eventsWritten - eventsCounted, bytes: bytesWritten - bytesCounted)
        telemetry.streamClosed(sessions, reason: ending ?? reason, lifetime: .now - opened, events: eventsWritten, bytes: bytesWritten)
    }

    /// What was written since the last report: added to the server's counters
    /// once per idle turn of the stream rather than once per event.
    private var eventsCounted = 0
    private var bytesCounted = 0

    /// Reports what was written since the last report.
    private func report() {
        telemetry.delivered(events: eventsWritten - eventsCounted, bytes: bytesWritten - bytesCounted)
        eventsCounted = eventsWritten
        bytesCounted = bytesWritten
    }
}
