import Bindery
import Foundation

/// The bytes of one event stream: `retry:` first, then each item of its
/// subscription as server-sent events, and a keep-alive comment when one is due.
///
/// It holds what the stream owns, the subscription and its admission, and
/// `close` gives both back, once, whichever way the stream ends.
///
/// Threading: used by its connection only, under the connection's lock.
final class EventStreamWriter: @unchecked Sendable {
    /// What `read` produced.
    enum Read: Equatable {
        /// This many bytes were written.
        case bytes(Int)
        /// Nothing now: the subscription wakes its reader, or a keep-alive comes due.
        case idle
        /// The stream is over.
        case end
    }

    let subscription: Subscription
    private let admission: StreamAdmission.Ticket
    /// Where writing is: `read` works on it as a local, because every in-place
    /// change to a class's property costs a runtime exclusivity check.
    private struct Cursor {
        /// Items taken from the subscription, written in order.
        var outbox: [Subscription.Item] = []
        var index = 0
        /// The bytes being written and how far.
        var current: [UInt8] = []
        var offset = 0
        var endsAfterCurrent = false
    }
    private var cursor = Cursor()
    private var isClosed = false
    /// A keep-alive comment goes out the next time the stream has nothing else.
    var heartbeatDue = false

    init(subscription: Subscription, admission: StreamAdmission.Ticket, retryMilliseconds: Int) {
        self.subscription = subscription
        self.admission = admission
        cursor.current = ServerSentEvents.retry(milliseconds: retryMilliseconds)
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
                cursor.current = ServerSentEvents.encode(item)
                cursor.offset = 0
                if case .end = item { cursor.endsAfterCurrent = true }
                continue
            }
            // What was written goes out first; the next call takes what came meanwhile.
            if written > 0 { break }
            // Emptied one by one: removeAll(keepingCapacity:) takes a slow generic path.
            while cursor.outbox.popLast() != nil {}
            cursor.index = 0
            switch subscription.take(into: &cursor.outbox) {
            case .items:
                continue
            case .idle where heartbeatDue:
                heartbeatDue = false
                cursor.current = ServerSentEvents.keepAlive
                cursor.offset = 0
                continue
            case .idle:
                break
            case .over:
                cursor.endsAfterCurrent = true
            }
            break
        }
        if written > 0 { return .bytes(written) }
        return cursor.endsAfterCurrent ? .end : .idle
    }

    /// Ends the stream and gives back its subscription and admission; the next read ends it.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        cursor = Cursor()
        subscription.cancel()
        admission.release()
    }
}
