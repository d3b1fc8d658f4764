import Foundation

/// One subscriber's queue of bytes to write: encoded events (shared with every
/// other stream) and the stream's own lines (`retry:`, comments, end marker).
///
/// Bounded: a newer value of a driver replaces an older one still waiting, and
/// when what waits exceeds `maxBufferedBytes` the stream ends so the client
/// reconnects with `Last-Event-ID`. `onReady` is called, outside any lock,
/// when bytes arrive or the stream ends, so the writer can wake up.
///
/// Thread safety: every method may be called from any thread.
public final class EventStream: @unchecked Sendable {
    /// What `read` produced.
    public enum ReadResult: Equatable {
        /// This many bytes were copied.
        case bytes(Int)
        /// Nothing to write now; wait for `onReady`.
        case idle
        /// The stream is over.
        case ended
    }

    private enum Chunk {
        case event(EncodedEvent)
        case raw([UInt8])

        var bytes: [UInt8] {
            switch self {
            case .event(let event): return event.bytes
            case .raw(let bytes): return bytes
            }
        }
    }

    private let lock = NSLock()
    private var pending: [Chunk] = []
    private var offset = 0
    private var pendingBytes = 0
    private var isFinishing = false
    private var isEnded = false
    private var onReadyHandler: (() -> Void)?
    /// The most bytes that may wait before the stream is closed as too slow.
    public let maxBufferedBytes: Int
    /// Why the stream ended early, if it did.
    public private(set) var overflowed = false

    /// A stream holding at most `maxBufferedBytes` unwritten bytes.
    public init(maxBufferedBytes: Int) { self.maxBufferedBytes = maxBufferedBytes }

    /// Called when there is something to read; set once, by the writer.
    public var onReady: (() -> Void)? {
        get { lock.withLock { onReadyHandler } }
        set { lock.withLock { onReadyHandler = newValue } }
    }

    /// Queues `event`, replacing a waiting older value of the same driver.
    public func enqueue(_ event: EncodedEvent) {
        push(.event(event), coalescing: event.kind == .driver ? event.name : nil)
    }

    /// Queues raw SSE text (a comment, a `retry:` line).
    public func enqueue(raw text: String) {
        push(.raw(Array(text.utf8)), coalescing: nil)
    }

    private func push(_ chunk: Chunk, coalescing driver: String?) {
        let wake = lock.withLock { () -> (() -> Void)? in
            guard !isFinishing, !isEnded else { return nil }
            if let driver {
                // The first chunk may be half written; only later ones can go.
                if let index = pending.indices.dropFirst(offset > 0 ? 1 : 0).first(where: {
                    if case .event(let old) = pending[$0], old.name == driver, old.kind == .driver { return true }
                    return false
                }) {
                    pendingBytes -= pending[index].bytes.count
                    pending.remove(at: index)
                }
            }
            pending.append(chunk)
            pendingBytes += chunk.bytes.count
            if pendingBytes - offset > maxBufferedBytes {
                overflowed = true
                isEnded = true
                pending = []
                pendingBytes = 0
                offset = 0
            }
            return onReadyHandler
        }
        wake?()
    }

    /// Ends the stream once what waits is written, after `last` (e.g. `event: bindery.end`).
    public func finish(last text: String? = nil) {
        let wake = lock.withLock { () -> (() -> Void)? in
            guard !isFinishing, !isEnded else { return nil }
            if let text {
                let bytes = Array(text.utf8)
                pending.append(.raw(bytes))
                pendingBytes += bytes.count
            }
            isFinishing = true
            return onReadyHandler
        }
        wake?()
    }

    /// Ends the stream now, dropping what waits.
    public func close() {
        let wake = lock.withLock { () -> (() -> Void)? in
            guard !isEnded else { return nil }
            isEnded = true
            pending = []
            pendingBytes = 0
            offset = 0
            return onReadyHandler
        }
        wake?()
    }

    /// Whether the stream has ended or is finishing.
    public var isClosed: Bool { lock.withLock { isEnded || isFinishing } }

    /// Copies up to `buffer.count` waiting bytes into `buffer`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        lock.withLock {
            if isEnded { return .ended }
            var written = 0
            while written < buffer.count, let chunk = pending.first {
                let bytes = chunk.bytes
                let count = min(bytes.count - offset, buffer.count - written)
                bytes.withUnsafeBytes { source in
                    buffer.baseAddress!.advanced(by: written).copyMemory(from: source.baseAddress!.advanced(by: offset), byteCount: count)
                }
                written += count
                offset += count
                if offset == bytes.count {
                    pending.removeFirst()
                    pendingBytes -= bytes.count
                    offset = 0
                }
            }
            if written > 0 { return .bytes(written) }
            if isFinishing {
                isEnded = true
                return .ended
            }
            return .idle
        }
    }
}
