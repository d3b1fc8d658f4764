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
    /// The subscription of a one-feed stream, read without the turns' bookkeeping.
    /// `feeds` holds it: borrowed, so using it counts no reference, twice an event.
    private let only: Unmanaged<Subscription>?
    /// Whether items start with their session's line (a multiplexed stream).
    private let isPrefixed: Bool
    /// The sessions streamed (`<vm>/<sid>`), the telemetry told of its life, and its counts.
    private let sessions: [String]
    private let telemetry: Telemetry
    private let opened = ContinuousClock.now
    private let admission: StreamAdmission.Ticket

    /// Everything `read` changes. Behind a pointer, so changing it pays no
    /// runtime exclusivity check, which would cost more than an event's copy.
    private struct State {
        /// Items taken from the subscription of feed `feed`, written in order.
        var outbox: [Subscription.Item] = []
        var index = 0
        var feed = 0
        /// The bytes being written and how far.
        var current: [UInt8] = []
        var offset = 0
        var endsAfterCurrent = false
        /// Which feeds have ended, how many have not, and which one to ask first.
        var ended: [Bool]
        var remaining: Int
        var next = 0
        var isClosed = false
        var heartbeatDue = false
        var eventsWritten = 0
        var bytesWritten = 0
        /// What was written until the last report: added to the server's
        /// counters once per idle turn of the stream rather than once per event.
        var eventsCounted = 0
        var bytesCounted = 0
        /// How the stream ended, when the stream itself saw it (an end, an overflow).
        var ending: StreamEnding?
    }
    private let state: UnsafeMutablePointer<State>

    /// A keep-alive comment goes out the next time the stream has nothing else.
    var heartbeatDue: Bool {
        get { state.pointee.heartbeatDue }
        set { state.pointee.heartbeatDue = newValue }
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
        state = .allocate(capacity: 1)
        state.initialize(to: State(current: ServerSentEvents.retry(milliseconds: retryMilliseconds) + preamble,
                                   endsAfterCurrent: feeds.isEmpty,
                                   ended: Array(repeating: false, count: feeds.count), remaining: feeds.count))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Makes `reader` the one every subscription wakes.
    func attach(_ reader: any SubscriptionReader) {
        for feed in feeds { feed.subscription.reader = reader }
    }

    /// Fills `buffer` with what the stream has, up to its size.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        let state = state
        guard !state.pointee.isClosed else { return .end }
        var written = 0
        writing: while written < buffer.count {
            if state.pointee.offset < state.pointee.current.count {
                let count = min(state.pointee.current.count - state.pointee.offset, buffer.count - written)
                state.pointee.current.withUnsafeBytes { source in
                    buffer.baseAddress!.advanced(by: written).copyMemory(from: source.baseAddress!.advanced(by: state.pointee.offset), byteCount: count)
                }
                state.pointee.offset += count
                written += count
                continue
            }
            if state.pointee.endsAfterCurrent { break }
            if state.pointee.index < state.pointee.outbox.count {
                let item = state.pointee.outbox[state.pointee.index]
                state.pointee.index += 1
                if case .event = item { state.pointee.eventsWritten += 1 }
                let prefix = isPrefixed ? feeds[state.pointee.feed].prefix : []
                state.pointee.current = prefix.isEmpty ? ServerSentEvents.encode(item) : prefix + ServerSentEvents.encode(item)
                state.pointee.offset = 0
                if case .end = item, only != nil || end(feed: state.pointee.feed) {
                    state.pointee.endsAfterCurrent = true
                    state.pointee.ending = .sessionEnded
                }
                continue
            }
            // What was written goes out first; the next call takes what came meanwhile.
            if written > 0 { break }
            // Let go of what was written: the next event usually needs neither
            // list nor bytes of its own (below), and a stream's own buffers
            // are cold by the time its next event comes.
            if state.pointee.index > 0 {
                state.pointee.outbox = []
                state.pointee.index = 0
            }
            if state.pointee.offset > 0 {
                state.pointee.current = []
                state.pointee.offset = 0
            }
            // A one-session stream that keeps up: the event's bytes straight into the buffer.
            var taken: Subscription.Take?
            if !isPrefixed, let only {
                switch only._withUnsafeGuaranteedRef({ $0.copyNewest(into: buffer) }) {
                case .copied(let count):
                    state.pointee.eventsWritten += 1
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
            case .idle where state.pointee.heartbeatDue:
                state.pointee.heartbeatDue = false
                state.pointee.current = ServerSentEvents.keepAlive
                continue
            case .idle:
                break
            case .over(let over):
                state.pointee.endsAfterCurrent = true
                state.pointee.ending = over == .overflow ? .overflow : .sessionEnded
            }
            break
        }
        if written > 0 {
            state.pointee.bytesWritten += written
            return .bytes(written)
        }
        if state.pointee.bytesWritten > state.pointee.bytesCounted { report() }
        return state.pointee.endsAfterCurrent ? .end : .idle
    }

    /// Takes from the feeds in turn, from the one after the last that had items.
    private func take() -> Subscription.Take {
        // One session's stream: its subscription's answer is the stream's (its
        // `.end` item ended the stream before this could be asked again).
        if let only { return only._withUnsafeGuaranteedRef { $0.take(into: &state.pointee.outbox) } }
        for step in 0..<feeds.count {
            let index = (state.pointee.next + step) % feeds.count
            guard !state.pointee.ended[index] else { continue }
            switch feeds[index].subscription.take(into: &state.pointee.outbox) {
            case .items:
                state.pointee.feed = index
                state.pointee.next = index + 1
                return .items
            case .idle:
                continue
            case .over(.ended):
                _ = end(feed: index)
            case .over(let ending):
                return .over(ending)
            }
        }
        return state.pointee.remaining == 0 ? .over(.ended) : .idle
    }

    /// Feed `index` has ended; true if it was the last, so the stream ends after the current bytes.
    private func end(feed index: Int) -> Bool {
        if !state.pointee.ended[index] {
            state.pointee.ended[index] = true
            state.pointee.remaining -= 1
        }
        return state.pointee.remaining == 0
    }

    /// Ends the stream and gives back its subscriptions and admission; the next
    /// read ends it. `reason` is why, unless the stream saw its own end first.
    func close(_ reason: StreamEnding) {
        guard !state.pointee.isClosed else { return }
        state.pointee.isClosed = true
        state.pointee.outbox = []
        state.pointee.current = []
        for feed in feeds { feed.subscription.cancel() }
        admission.release()
        let state = state.pointee
        telemetry.delivered(events: state.eventsWritten - state.eventsCounted, bytes: state.bytesWritten - state.bytesCounted)
        telemetry.streamClosed(sessions, reason: state.ending ?? reason, lifetime: .now - opened, events: state.eventsWritten, bytes: state.bytesWritten)
    }

    /// Reports what was written since the last report.
    private func report() {
        telemetry.delivered(events: state.pointee.eventsWritten - state.pointee.eventsCounted,
                            bytes: state.pointee.bytesWritten - state.pointee.bytesCounted)
        state.pointee.eventsCounted = state.pointee.eventsWritten
        state.pointee.bytesCounted = state.pointee.bytesWritten
    }
}
