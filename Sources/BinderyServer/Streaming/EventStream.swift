import Bindery
import CMicroHTTPD
import Foundation
import Synchronization

/// An event stream, as the body of its response: `retry:` and the stream's
/// preamble, then the bytes its subscriptions write, a keep-alive comment when
/// one is due, until the stream ends.
///
/// It holds its connection's `ConnectionSleep`, the one right to suspend and
/// resume it, while it is the connection's response: libmicrohttpd calls
/// `read` for bytes, and the stream suspends the connection when it has none;
/// a subscription's `wake`, a heartbeat, a hang-up or a close resumes it. It
/// holds what it owns, its subscriptions and its admission, and `close` gives
/// them back, once, whichever way the stream ends. Bytes flow one way: from the subscriptions,
/// through `read`, to libmicrohttpd.
///
/// Ownership: the libmicrohttpd response holds one reference, from
/// `response(…)` until libmicrohttpd frees the response (`streamFreed`); the
/// connection holds another while the stream is its request's. `detach`, when
/// the request ends, is the last time the stream touches the connection.
///
/// Threading: one lock orders `read` (libmicrohttpd's thread), the wakes (the
/// sessions' turns) and the connection's calls (heartbeats, hang-ups,
/// draining, the sweep). It takes no other lock of the server's while held
/// except a subscription's, so a connection may call it under its own.
final class EventStream: SubscriptionWake, Sendable {
    /// What the lock guards; what an event needs first.
    private struct State: ~Copyable {
        /// While it holds, the subscription has nothing to write
        /// (`Subscription.idleCheck`): `read` suspends without asking it.
        /// Dropped by whatever gives the stream something else to do.
        var idleCheck: Subscription.IdleCheck?
        /// The sleep of the connection this stream is the response of, from `attach` to `detach`.
        var sleep: ConnectionSleep?
        /// The stream's own bytes (`retry:` and the preamble, a keep-alive), written before anything else.
        var own: [UInt8]
        var ownOffset = 0
        /// A keep-alive comment goes out the next time the stream has nothing else.
        var heartbeatDue = false
        var isClosed = false
        /// How the stream ended, when it saw it itself (its session ended, it fell behind).
        var ending: StreamEnding?
        var feeds: MultiplexedFeeds?
        var eventsWritten = 0
        var bytesWritten = 0
        /// What was reported until now: added to the server's counters once
        /// the stream has written all it had (an idle read), not once per write.
        var eventsCounted = 0
        var bytesCounted = 0
    }

    private let state: Locked<State>
    /// Calls of `read`, and whether the connection sleeps: changed under the
    /// lock, read by the sweep without it (`awakeReads`).
    private let reads = Atomic<UInt32>(0)
    private let sleeps = Atomic<Bool>(false)
    /// The subscription of a one-session stream, read without the multiplexing:
    /// `subscriptions` holds it, so using it borrowed counts no reference.
    private let only: Unmanaged<Subscription>?
    private let subscriptions: [Subscription]
    private let telemetry: Telemetry
    /// The sessions streamed (`<vm>/<sid>`).
    private let sessions: [String]
    private let opened = ContinuousClock.now
    private let admission: StreamAdmission.Ticket

    /// The stream of one session, `<vm>/<sid>`, saying `preamble` after `retry:`.
    convenience init(
        session: String, subscription: Subscription, preamble: [UInt8] = [], admission: StreamAdmission.Ticket, retryMilliseconds: Int,
        telemetry: Telemetry
    ) {
        self.init(
            sessions: [session], subscriptions: [subscription], multiplexed: false, preamble: preamble, admission: admission,
            retryMilliseconds: retryMilliseconds, telemetry: telemetry)
    }

    /// A multiplexed stream of `sessions`, whose subscriptions (made with their
    /// session's line as `itemPrefix`) are `subscriptions`, and whose refused
    /// sessions are told in `preamble`, after `retry:`.
    convenience init(
        multiplexing sessions: [String], subscriptions: [Subscription], preamble: [UInt8], admission: StreamAdmission.Ticket,
        retryMilliseconds: Int, telemetry: Telemetry
    ) {
        self.init(
            sessions: sessions, subscriptions: subscriptions, multiplexed: true, preamble: preamble, admission: admission,
            retryMilliseconds: retryMilliseconds, telemetry: telemetry)
    }

    private init(
        sessions: [String], subscriptions: [Subscription], multiplexed: Bool, preamble: [UInt8] = [],
        admission: StreamAdmission.Ticket, retryMilliseconds: Int, telemetry: Telemetry
    ) {
        self.sessions = sessions
        self.subscriptions = subscriptions
        self.admission = admission
        self.telemetry = telemetry
        only = multiplexed ? nil : Unmanaged.passUnretained(subscriptions[0])
        var state = State(own: ServerSentEvents.retry(milliseconds: retryMilliseconds) + preamble)
        if multiplexed { state.feeds = MultiplexedFeeds(subscriptions) }
        // A multiplexed stream whose every session was refused has said all it has.
        if subscriptions.isEmpty { state.ending = .sessionEnded }
        self.state = Locked(state)
        telemetry.streamOpened(sessions)
    }

    /// A libmicrohttpd response whose body is this stream, holding it until libmicrohttpd frees the response.
    func response() -> OpaquePointer? {
        let context = Unmanaged.passRetained(self).toOpaque()
        guard let response = MHD_create_response_from_callback(bindery_mhd_size_unknown(), HTTPServer.streamBlockBytes, streamRead, context, streamFreed) else {
            Unmanaged<EventStream>.fromOpaque(context).release()
            return nil
        }
        return response
    }

    /// The stream is the response of the connection whose `sleep` it takes
    /// from now: it suspends and wakes it, and its subscriptions wake the stream.
    func attach(taking sleep: consuming ConnectionSleep) {
        var given: ConnectionSleep? = consume sleep
        locked { $0.sleep = given.take() }
        for subscription in subscriptions { subscription.wake = self }
    }

    /// The request ended (sent, failed, aborted): the stream closes, if it has
    /// not, for `reason`, and gives back the connection's sleep, never to touch it again.
    func detach(_ reason: StreamEnding) -> ConnectionSleep? {
        locked { state in
            close(&state, reason)
            sleeps.store(false, ordering: .relaxed)
            return state.sleep.take()
        }
    }

    /// What `read` produced.
    enum Read: Equatable {
        /// This many bytes were written.
        case bytes(Int)
        /// Nothing now: a subscription wakes the stream, or a keep-alive comes due.
        case idle
        /// The stream is over.
        case end
    }

    /// Fills `buffer` with what the stream has, up to its size.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        locked { fill(&$0, buffer) }
    }

    /// libmicrohttpd's content reader: bytes, the end, or suspend and 0.
    fileprivate func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        assertIn(.libmicrohttpd, "a stream's read")
        return locked { state in
            // The read after an event's, nearly always: nothing came since.
            if let check = state.idleCheck {
                if check.isStillIdle { return suspend(&state) }
                state.idleCheck = nil
            }
            switch fill(&state, UnsafeMutableRawBufferPointer(start: buffer, count: max)) {
            case .bytes(let count): return count
            case .idle: return suspend(&state)
            case .end: return bindery_mhd_reader_end_of_stream()
            }
        }
    }

    @inline(__always)
    private func fill(_ state: inout State, _ buffer: UnsafeMutableRawBufferPointer) -> Read {
        // Only ever changed under the lock: a load and a store, not an atomic add.
        reads.store(reads.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        var written = state.own.isEmpty ? 0 : writeOwn(&state, into: buffer)
        if written < buffer.count, !state.isClosed, state.ending == nil {
            switch readSubscriptions(&state, into: UnsafeMutableRawBufferPointer(rebasing: buffer[written...])) {
            case .bytes(let count, let events):
                written += count
                state.eventsWritten += events
            case .idle where written == 0 && state.heartbeatDue:
                state.heartbeatDue = false
                state.own = ServerSentEvents.keepAlive
                state.ownOffset = 0
                written = writeOwn(&state, into: buffer)
            case .idle:
                break
            case .over(let ending):
                // A reader that fell behind, or a session that moved: the stream
                // closes without `bindery.end`, and the client resumes from its last id.
                state.ending = ending == .overflow || ending == .moved ? .overflow : .sessionEnded
            }
        }
        if written > 0 {
            state.bytesWritten += written
            settle(&state)
            return .bytes(written)
        }
        if state.bytesWritten > state.bytesCounted { report(&state) }
        return state.isClosed || state.ending != nil ? .end : .idle
    }

    private func readSubscriptions(_ state: inout State, into buffer: UnsafeMutableRawBufferPointer) -> Subscription.Read {
        if let only { return only._withUnsafeGuaranteedRef { $0.read(into: buffer) } }
        return state.feeds!.read(into: buffer)
    }

    /// Writes what is left of the stream's own bytes.
    private func writeOwn(_ state: inout State, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard state.ownOffset < state.own.count else { return 0 }
        let count = min(state.own.count - state.ownOffset, buffer.count)
        state.own.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress!.advanced(by: state.ownOffset), byteCount: count)
        }
        state.ownOffset += count
        if state.ownOffset == state.own.count {
            state.own = []
            state.ownOffset = 0
        }
        return count
    }

    /// After a read that wrote bytes: when a one-session stream has nothing
    /// left to write and its subscription waits, reports what was written (as
    /// the idle read would) and keeps the subscription's idle check, so that
    /// the next read may suspend without touching the subscription's memory,
    /// cold again by then.
    private func settle(_ state: inout State) {
        guard let only, state.own.isEmpty, !state.heartbeatDue, !state.isClosed, state.ending == nil,
            let check = only._withUnsafeGuaranteedRef({ $0.idleCheck })
        else { return }
        state.idleCheck = check
        report(&state)
    }

    private func suspend(_ state: inout State) -> Int {
        // Never return 0 without suspending: libmicrohttpd would call again at once and spin.
        guard state.sleep != nil else { return bindery_mhd_reader_end_with_error() }
        state.sleep!.suspend()
        sleeps.store(true, ordering: .relaxed)
        return 0
    }

    private func resume(_ state: inout State) {
        guard state.sleep?.resume() == true else { return }
        sleeps.store(false, ordering: .relaxed)
    }

    /// A subscription has bytes again: resume the connection if it sleeps.
    func subscriptionHasItems() {
        locked { resume(&$0) }
    }

    /// A keep-alive comment is due.
    func heartbeat() {
        locked { state in
            state.heartbeatDue = true
            state.idleCheck = nil
            resume(&state)
        }
    }

    /// Says `bytes` (whole server-sent events of the stream's own: the server's
    /// data stale or current again) before whatever comes next.
    func tell(_ bytes: [UInt8]) {
        locked { state in
            guard !state.isClosed else { return }
            state.own += bytes
            state.idleCheck = nil
            resume(&state)
        }
    }

    /// Ends the stream now for `reason` (the client hung up, the server
    /// stops): its next read ends it, and a sleeping connection is woken for it.
    func close(_ reason: StreamEnding) {
        locked { state in
            close(&state, reason)
            resume(&state)
        }
    }

    /// The count of `read`'s calls while the connection is awake, nil while
    /// it sleeps: a count that stands still on an awake stream is a client
    /// that stopped taking its bytes (libmicrohttpd calls `read` only when
    /// the socket takes more). Without the lock: the sweep looks at every
    /// stream every second.
    var awakeReads: UInt32? {
        sleeps.load(ordering: .relaxed) ? nil : reads.load(ordering: .relaxed)
    }

    /// Gives back the subscriptions and the admission, once; the next read ends the stream.
    private func close(_ state: inout State, _ reason: StreamEnding) {
        state.idleCheck = nil
        guard !state.isClosed else { return }
        state.isClosed = true
        state.own = []
        state.ownOffset = 0
        for subscription in subscriptions { subscription.cancel() }
        admission.release()
        telemetry.delivered(events: state.eventsWritten - state.eventsCounted, bytes: state.bytesWritten - state.bytesCounted)
        telemetry.streamClosed(sessions, reason: state.ending ?? reason, lifetime: .now - opened, events: state.eventsWritten, bytes: state.bytesWritten)
    }

    /// Reports what was written since the last report.
    /// Runs `body` holding the stream's lock, the thread marked as holding it (debug
    /// builds): the connection's lock comes before it, never after (`Connection`).
    @inline(__always)
    private func locked<Result: ~Copyable>(_ body: (inout State) throws -> Result) rethrows -> Result {
        #if DEBUG
            try state.withLock { state in try marking(.streamLock) { try body(&state) } }
        #else
            try state.withLock(body)
        #endif
    }

    private func report(_ state: inout State) {
        telemetry.delivered(events: state.eventsWritten - state.eventsCounted, bytes: state.bytesWritten - state.bytesCounted)
        state.eventsCounted = state.eventsWritten
        state.bytesCounted = state.bytesWritten
    }
}

/// The stream's reader: `cls` is the `EventStream`, which the response holds.
private let streamRead: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return bindery_mhd_reader_end_with_error() }
    return marking(.libmicrohttpd) {
        Unmanaged<EventStream>.fromOpaque(cls)._withUnsafeGuaranteedRef { $0.read(into: buffer, max: max) }
    }
}

/// libmicrohttpd freed the response: its reference to the stream goes.
private let streamFreed: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<EventStream>.fromOpaque(cls).release()
}
