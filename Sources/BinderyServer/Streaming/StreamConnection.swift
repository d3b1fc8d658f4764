import Bindery
import CMicroHTTPD
import Foundation

/// An event stream written to one libmicrohttpd connection.
///
/// libmicrohttpd pulls bytes through `read`. When the stream has nothing, the
/// connection is suspended (so an idle stream costs no CPU) and `wake` resumes
/// it when the stream has bytes again. One lock orders the two, so a wake that
/// races a suspend is never lost. After `close`, libmicrohttpd has freed the
/// connection and nothing touches it again.
///
/// Resuming costs a lock and a system call in libmicrohttpd, so `wake` only
/// marks the connection and leaves the resume to one waker queue: an input
/// that fans out to many streams answers without waiting for every resume,
/// and several events before a resume need only one.
final class StreamConnection: @unchecked Sendable {
    private static let waker = DispatchQueue(label: "bindery.stream.waker")

    let stream: EventStream
    private let connection: OpaquePointer
    private let onClose: () -> Void
    private let lock = NSLock()
    private var isSuspended = false
    private var isClosed = false
    private var isWakeQueued = false

    init(stream: EventStream, connection: OpaquePointer, onClose: @escaping () -> Void) {
        self.stream = stream
        self.connection = connection
        self.onClose = onClose
        stream.onReady = { [weak self] in self?.wake() }
    }

    /// libmicrohttpd's content reader: bytes, end of stream, or suspend and 0.
    func read(into buffer: UnsafeMutableRawPointer, max: Int) -> Int {
        lock.withLock {
            switch stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max)) {
            case .bytes(let count):
                return count
            case .ended:
                return bindery_mhd_reader_end_of_stream()
            case .idle:
                isSuspended = true
                MHD_suspend_connection(connection)
                return 0
            }
        }
    }

    /// Has the connection resumed soon if it waits for bytes.
    func wake() {
        let queue = lock.withLock { () -> Bool in
            guard isSuspended, !isClosed, !isWakeQueued else { return false }
            isWakeQueued = true
            return true
        }
        if queue { Self.waker.async { self.resume() } }
    }

    /// Resumes the connection now if it waits for bytes (also used at shutdown).
    func resume() {
        lock.withLock {
            isWakeQueued = false
            guard isSuspended, !isClosed else { return }
            isSuspended = false
            MHD_resume_connection(connection)
        }
    }

    /// Whether the connection is suspended now.
    var suspended: Bool { lock.withLock { isSuspended && !isClosed } }

    /// libmicrohttpd is done with the connection.
    func close() {
        let first = lock.withLock { () -> Bool in
            defer { isClosed = true }
            return !isClosed
        }
        guard first else { return }
        stream.close()
        onClose()
    }
}
