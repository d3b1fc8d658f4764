import Bindery
import BinderyRx
import CMicroHTTPD
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Tells the server when the client of an open stream hangs up.
///
/// libmicrohttpd does not watch the socket of a suspended connection, and a
/// stream is suspended whenever it has nothing to write: a client that leaves
/// an idle stream would keep its place (under `--max-streams` and the
/// session's limit) until the next heartbeat's write failed. So each stream's
/// socket is also watched here, added once when the stream starts and removed
/// when it ends: no cost per event. One thread waits (`bindery.hangups`).
///
/// Threading: `watch`, `unwatch` and `stop` may be called from any thread,
/// `watch` and `unwatch` only before `stop`; `hungUp` is called on the
/// watcher's own thread, at most once per `watch`.
protocol HangupWatcher: AnyObject, Sendable {
    /// Watches stream `serial`'s socket `fd` until `unwatch`.
    func watch(fd: Int32, serial: UInt64)
    /// Stops watching `fd` (before libmicrohttpd closes it, so its number can be reused).
    func unwatch(fd: Int32)
    /// Ends the thread, waits for it and closes the descriptors; later calls do nothing.
    func stop()
}

/// The watcher for `waiting`: epoll's on Linux, poll(2)'s where asked or elsewhere.
func makeHangupWatcher(_ waiting: SocketWaiting, hungUp: @escaping @Sendable (UInt64) -> Void) -> any HangupWatcher {
    #if os(Linux)
        if waiting == .epoll { return EpollHangupWatcher(hungUp: hungUp) }
    #endif
    return PollHangupWatcher(hungUp: hungUp)
}

/// Starts the watcher's thread, which runs `body` until it returns.
private func startWatching(_ body: @escaping @Sendable () -> Void) {
    Thread {
        nameCurrentThread("bindery.hangups")
        body()
    }.start()
}

/// Whether the watcher is stopping: true for the first caller of `stop` only.
private func firstToStop(_ stopping: Locked<Bool>) -> Bool {
    stopping.withLock { (wasStopping: inout Bool) -> Bool in
        defer { wasStopping = true }
        return !wasStopping
    }
}

#if os(Linux)
    /// The watcher on Linux: each stream's socket in an epoll set of its own,
    /// for `EPOLLRDHUP` only (the peer closed), once; an `eventfd` wakes the
    /// thread to stop. A watch or an unwatch is one system call.
    final class EpollHangupWatcher: HangupWatcher, Sendable {
        private let epoll: Int32
        private let wake: Int32
        private let hungUp: @Sendable (UInt64) -> Void
        private let stopped = DispatchSemaphore(value: 0)
        private let stopping = Locked(false)
        /// The `wake` descriptor's key in the set: no stream has serial 0.
        private static let wakeKey: UInt64 = 0

        init(hungUp: @escaping @Sendable (UInt64) -> Void) {
            self.hungUp = hungUp
            epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
            wake = eventfd(0, Int32(EFD_CLOEXEC))
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.u64 = Self.wakeKey
            epoll_ctl(epoll, EPOLL_CTL_ADD, wake, &event)
            startWatching { [self] in run() }
        }

        func watch(fd: Int32, serial: UInt64) {
            var event = epoll_event()
            // Once: the report stays until the stream ends and `unwatch` removes it.
            event.events = EPOLLRDHUP.rawValue | EPOLLONESHOT.rawValue
            event.data.u64 = serial
            epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event)
        }

        func unwatch(fd: Int32) {
            var event = epoll_event()
            epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
        }

        func stop() {
            guard firstToStop(stopping) else { return }
            var one: UInt64 = 1
            if write(wake, &one, 8) == 8 { stopped.wait() }
            close(wake)
            close(epoll)
        }

        private func run() {
            var events = [epoll_event](repeating: epoll_event(), count: 64)
            loop: while true {
                let count = epoll_wait(epoll, &events, Int32(events.count), -1)
                if count < 0 {
                    if errno == EINTR { continue }
                    break
                }
                for event in events.prefix(Int(count)) {
                    if event.data.u64 == Self.wakeKey { break loop }
                    hungUp(event.data.u64)
                }
            }
            stopped.signal()
        }
    }
#endif

/// The watcher anywhere: poll(2) over every watched socket, the list made
/// again after each watch or unwatch (a byte down a pipe wakes the thread for
/// it). A socket that reads as closed (`POLLHUP`, `POLLRDHUP` where there is
/// one, or readable with nothing to read) is reported and dropped; one that
/// has bytes to read (a client that sent more on a stream's connection) is
/// dropped unreported, so that it does not wake the thread again and again.
/// Each wait costs a pass over every open stream: epoll's watcher is Linux's.
final class PollHangupWatcher: HangupWatcher, Sendable {
    private let hungUp: @Sendable (UInt64) -> Void
    /// The sockets watched, each with its stream's serial.
    private let watched = Locked<[Int32: UInt64]>([:])
    /// The pipe that wakes the thread: its read end is polled with the sockets.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let stopped = DispatchSemaphore(value: 0)
    private let stopping = Locked(false)

    init(hungUp: @escaping @Sendable (UInt64) -> Void) {
        self.hungUp = hungUp
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        startWatching { [self] in run() }
    }

    func watch(fd: Int32, serial: UInt64) {
        watched.withLock { $0[fd] = serial }
        wakeUp()
    }

    func unwatch(fd: Int32) {
        guard watched.withLock({ $0.removeValue(forKey: fd) }) != nil else { return }
        wakeUp()
    }

    func stop() {
        guard firstToStop(stopping) else { return }
        if wakeUp() { stopped.wait() }
        close(wakeRead)
        close(wakeWrite)
    }

    /// Wakes the thread to make its list again (a full pipe has a wake pending already).
    @discardableResult
    private func wakeUp() -> Bool {
        var byte: UInt8 = 1
        return write(wakeWrite, &byte, 1) == 1 || errno == EAGAIN
    }

    /// `POLLRDHUP` (the peer closed) where the platform has it, Linux's.
    private static let peerClosed: Int16 = {
        #if os(Linux)
            bindery_pollrdhup
        #else
            0
        #endif
    }()

    private func run() {
        var descriptors: [pollfd] = []
        var serials: [UInt64] = []
        while true {
            // The list as it stands: the pipe first, then every socket watched.
            descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            serials = [0]
            for (fd, serial) in watched.withLock({ $0 }) {
                descriptors.append(pollfd(fd: fd, events: Int16(POLLIN) | Self.peerClosed, revents: 0))
                serials.append(serial)
            }
            let count = poll(&descriptors, nfds_t(descriptors.count), -1)
            if count < 0 {
                if errno == EINTR { continue }
                break
            }
            if descriptors[0].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 256)
                while read(wakeRead, &drained, drained.count) > 0 {}
                if stopping.withLock({ $0 }) { break }
            }
            for (descriptor, serial) in zip(descriptors.dropFirst(), serials.dropFirst()) where descriptor.revents != 0 {
                // Not open (closed since the list was made): dropped if still listed, unreported.
                let invalid = descriptor.revents & Int16(POLLNVAL) != 0
                let closed =
                    !invalid
                    && (descriptor.revents & (Int16(POLLHUP) | Int16(POLLERR) | Self.peerClosed) != 0 || Self.readsAsClosed(descriptor.fd))
                // A number closed and reused since the list was made is another stream's: only this serial's entry goes.
                let ours = watched.withLock { watched -> Bool in
                    guard watched[descriptor.fd] == serial else { return false }
                    watched[descriptor.fd] = nil
                    return true
                }
                if ours && closed { hungUp(serial) }
            }
        }
        stopped.signal()
    }

    /// Whether `fd`, readable, has nothing to read: its peer closed it.
    private static func readsAsClosed(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }
}
