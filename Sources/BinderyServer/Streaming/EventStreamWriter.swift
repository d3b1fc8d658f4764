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

    // What an event reads comes first, so that it touches this object's first
    // two cache lines and no other memory of the writer's own (a stream's
    // memory is cold by the time its next event comes).

    /// The subscription of a one-feed stream, read without the turns' bookkeeping.
    /// `feeds` holds it: borrowed, so using it counts no reference, twice an event.
    private let only: Unmanaged<Subscription>?
    private let feeds: [Feed]
    /// Whether items start with their session's line (a multiplexed stream).
    private let isPrefixed: Bool
    /// Told what was written (once the stream has written all it had), and of the stream's life.
    private let telemetry: Telemetry
    /// Everything `read` changes. Unchecked: the connection's lock orders every
    /// access, and a runtime exclusivity check would cost more than an event's copy.
    @exclusivity(unchecked) private var state: State
    /// The sessions streamed (`<vm>/<sid>`).
    private let sessions: [String]
    private let opened = ContinuousClock.now
    private let admission: StreamAdmission.Ticket

    /// What `read` changes, what an event needs first.
    private struct State {
        var isClosed = false
        var endsAfterCurrent = false
        var heartbeatDue = false
        /// The bytes being written and how far.
        var current: [UInt8] = []
        var offset = 0
        /// Items taken from the subscription of feed `feed`, written in order.
        var outbox: [Subscription.Item] = []
        var index = 0
        var eventsWritten = 0
        var bytesWritten = 0
        /// What was written until the last report: added to the server's
        /// counters once the stream has written all it had (an idle read, or
        /// `settle`), rather than once per write.
        var eventsCounted = 0
        var bytesCounted = 0
        var feed = 0
        /// Which feeds have ended, how many have not, and which one to ask first.
        var ended: [Bool]
        var remaining: Int
        var next = 0
        /// How the stream ended, when the stream itself saw it (an end, an overflow).
        var ending: StreamEnding?
    }
    /// A keep-alive comment goes out the next time the stream has nothing else.
    var heartbeatDue: Bool {
        get { state.heartbeatDue }
        set { state.heartbeatDue = newValue }
    }

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
        only = feeds.count == 1 ? Unmanaged.passUnretained(feeds[0].subscription) : nil
        isPrefixed = feeds.contains { !$0.prefix.isEmpty }
        self.admission = admission
        state = State(endsAfterCurrent: feeds.isEmpty, current: ServerSentEvents.retry(milliseconds: retryMilliseconds) + preamble,
                      ended: Array(repeating: false, count: feeds.count), remaining: feeds.count)
    }

    /// Makes `reader` the one every subscription wakes.
    func attach(_ reader: any SubscriptionReader) {
        for feed in feeds { feed.subscription.reader = reader }
    }

    /// Fills `buffer` with what the stream has, up to its size.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        guard !state.isClosed else { return .end }
        var written = 0
        writing: while written < buffer.count {
            if state.offset < state.current.count {
                let count = min(state.current.count - state.offset, buffer.count - written)
                state.current.withUnsafeBytes { source in
                    buffer.baseAddress!.advanced(by: written).copyMemory(from: source.baseAddress!.advanced(by: state.offset), byteCount: count)
                }
                state.offset += count
                written += count
                continue
            }
            if state.endsAfterCurrent { break }
            if state.index < state.outbox.count {
                let item = state.outbox[state.index]
                state.index += 1
                if case .event = item { state.eventsWritten += 1 }
                let prefix = isPrefixed ? feeds[state.feed].prefix : []
                state.current = prefix.isEmpty ? ServerSentEvents.encode(item) : prefix + ServerSentEvents.encode(item)
                state.offset = 0
                if case .end = item, only != nil || end(feed: state.feed) {
                    state.endsAfterCurrent = true
                    state.ending = .sessionEnded
                }
                continue
            }
            // What was written goes out first; the next call takes what came meanwhile.
            if written > 0 { break }
            // Let go of what was written: the next event usually needs neither
            // list nor bytes of its own (below), and a stream's own buffers
            // are cold by the time its next event comes.
            if state.index > 0 {
                state.outbox = []
                state.index = 0
            }
            if state.offset > 0 {
                state.current = []
                state.offset = 0
            }
            // A one-session stream that keeps up: the event's bytes straight into the buffer.
            var taken: Subscription.Take?
            if !isPrefixed, let only {
                switch only._withUnsafeGuaranteedRef({ $0.copyNewest(into: buffer) }) {
                case .copied(let count):
                    state.eventsWritten += 1
                    written = count
                    break writing
                case .idle:
                    taken = .idle
                case .take:
                    break
                }
            }
            switch taken ?? take() {
            case .items:
                continue
            case .idle where state.heartbeatDue:
                state.heartbeatDue = false
                state.current = ServerSentEvents.keepAlive
                continue
            case .idle:
                break
            case .over(let over):
                state.endsAfterCurrent = true
                state.ending = over == .overflow ? .overflow : .sessionEnded
            }
            break
        }
        if written > 0 {
            state.bytesWritten += written
            return .bytes(written)
        }
        if state.bytesWritten > state.bytesCounted { report() }
        return state.endsAfterCurrent ? .end : .idle
    }

    /// After a read that wrote bytes: when the stream has nothing left to
    /// write and its one subscription waits, reports what was written (as the
    /// idle read would) and returns the subscription's test that nothing came
    /// since. While it holds, the next read would say `.idle` and change
    /// nothing, so the connection may suspend without asking: that read would
    /// touch this writer's and the subscription's memory, cold again by then.
    /// nil otherwise. The test ignores `close` and `heartbeatDue`: whoever sets
    /// them drops it.
    func settle() -> Subscription.Quiet? {
        guard let only, !state.isClosed, !state.endsAfterCurrent, !state.heartbeatDue,
              state.offset >= state.current.count, state.index >= state.outbox.count,
              let quiet = only._withUnsafeGuaranteedRef({ $0.quiet }) else { return nil }
        if state.bytesWritten > state.bytesCounted { report() }
        return quiet
    }

    /// Takes from the feeds in turn, from the one after the last that had items.
    private func take() -> Subscription.Take {
        // One session's stream: its subscription's answer is the stream's (its
        // `.end` item ended the stream before this could be asked again).
        if let only { return only._withUnsafeGuaranteedRef { $0.take(into: &state.outbox) } }
        for step in 0..<feeds.count {
            let index = (state.next + step) % feeds.count
            guard !state.ended[index] else { continue }
            switch feeds[index].subscription.take(into: &state.outbox) {
            case .items:
                state.feed = index
                state.next = index + 1
                return .items
            case .idle:
                continue
            case .over(.ended):
                _ = end(feed: index)
            case .over(let ending):
                return .over(ending)
            }
        }
        return state.remaining == 0 ? .over(.ended) : .idle
    }

    /// Feed `index` has ended; true if it was the last, so the stream ends after the current bytes.
    private func end(feed index: Int) -> Bool {
        if !state.ended[index] {
            state.ended[index] = true
            state.remaining -= 1
        }
        return state.remaining == 0
    }

    /// Ends the stream and gives back its subscriptions and admission; the next
    /// read ends it. `reason` is why, unless the stream saw its own end first.
    func close(_ reason: StreamEnding) {
        guard !state.isClosed else { return }
        state.isClosed = true
        state.outbox = []
        state.current = []
        for feed in feeds { feed.subscription.cancel() }
        admission.release()
        let state = state
        telemetry.delivered(events: state.eventsWritten - state.eventsCounted, bytes: state.bytesWritten - state.bytesCounted)
        telemetry.streamClosed(sessions, reason: state.ending ?? reason, lifetime: .now - opened, events: state.eventsWritten, bytes: state.bytesWritten)
    }

    /// Reports what was written since the last report.
    private func report() {
        telemetry.delivered(events: state.eventsWritten - state.eventsCounted,
                            bytes: state.bytesWritten - state.bytesCounted)
        state.eventsCounted = state.eventsWritten
        state.bytesCounted = state.bytesWritten
    }
}
