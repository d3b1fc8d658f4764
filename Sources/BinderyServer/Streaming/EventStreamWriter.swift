import Bindery
import Foundation

/// The bytes of one event stream: `retry:` first, then each item of its
/// subscription as server-sent events, and a keep-alive comment when one is due.
///
/// It holds what the stream owns, the subscription and its admission, and
/// `close` gives both back, once, whichever way the stream ends.
///
/// Threading: used by its connection only, under the connection's lock.
final class EventStreamWriter {
    /// What `read` produced.
    enum Read: Equatable {
        /// This many bytes were written.
        case bytes(Int)
        /// Nothing now: the subscription calls `onReady`, or a keep-alive comes due.
        case idle
        /// The stream is over.
        case end
    }

    let subscription: Subscription
    private let admission: StreamAdmission.Ticket
    /// Items taken from the subscription, written in order.
    private var outbox: [Subscription.Item] = []
    private var outboxIndex = 0
    /// The bytes being written and how far.
    private var current: [UInt8]
    private var offset = 0
    private var endsAfterCurrent = false
    private var isClosed = false
    /// A keep-alive comment goes out the next time the stream has nothing else.
    var heartbeatDue = false

    init(subscription: Subscription, admission: StreamAdmission.Ticket, retryMilliseconds: Int) {
        self.subscription = subscription
        self.admission = admission
        current = ServerSentEvents.retry(milliseconds: retryMilliseconds)
    }

    /// Fills `buffer` with what the stream has, up to its size.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        guard !isClosed else { return .end }
        var written = 0
        while written < buffer.count {
            if offset < current.count {
                let count = min(current.count - offset, buffer.count - written)
                current.withUnsafeBytes { source in
                    buffer.baseAddress!.advanced(by: written).copyMemory(from: source.baseAddress!.advanced(by: offset), byteCount: count)
                }
                offset += count
                written += count
                continue
            }
            if endsAfterCurrent { break }
            if outboxIndex < outbox.count {
                let item = outbox[outboxIndex]
                outboxIndex += 1
                current = ServerSentEvents.encode(item)
                offset = 0
                endsAfterCurrent = item == .end
                continue
            }
            outbox.removeAll(keepingCapacity: true)
            outboxIndex = 0
            switch subscription.take(into: &outbox) {
            case .items:
                continue
            case .idle where heartbeatDue:
                heartbeatDue = false
                current = ServerSentEvents.keepAlive
                offset = 0
                continue
            case .idle:
                break
            case .over:
                endsAfterCurrent = true
            }
            break
        }
        if written > 0 { return .bytes(written) }
        return endsAfterCurrent ? .end : .idle
    }

    /// Ends the stream and gives back its subscription and admission; the next read ends it.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        outbox = []
        subscription.cancel()
        admission.release()
    }
}
