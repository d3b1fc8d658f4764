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
final class StreamConnection: @unchecked Sendable {
    let stream: EventStream
    private let connection: OpaquePointer
    private let onClose: () -> Void
    private let lock = NSLock()
    private var isSuspended = false
    private var isClosed = false

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

    /// Resumes the connection if it waits for bytes.
    func wake() {
        lock.withLock {
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
