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
/// socket is also in an epoll set of its own, for `EPOLLRDHUP` only (the peer
/// closed), added once when the stream starts and removed when it ends: no
/// cost per event. One thread waits on it; an `eventfd` wakes it to stop.
///
/// Threading: `watch`, `unwatch` and `stop` may be called from any thread,
/// `watch` and `unwatch` only before `stop`; `hungUp` is called on the
/// watcher's own thread.
final class HangupWatcher: @unchecked Sendable {
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
        Thread { [self] in
            nameCurrentThread("bindery.hangups")
            run()
        }.start()
    }

    /// Watches stream `serial`'s socket `fd` until `unwatch`.
    func watch(fd: Int32, serial: UInt64) {
        var event = epoll_event()
        // Once: the report stays until the stream ends and `unwatch` removes it.
        event.events = EPOLLRDHUP.rawValue | EPOLLONESHOT.rawValue
        event.data.u64 = serial
        epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event)
    }

    /// Stops watching `fd` (before libmicrohttpd closes it, so its number can be reused).
    func unwatch(fd: Int32) {
        var event = epoll_event()
        epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
    }

    /// Ends the thread, waits for it and closes the descriptors; later calls do nothing.
    func stop() {
        guard
            stopping.withLock({ (wasStopping: inout Bool) -> Bool in
                defer { wasStopping = true }
                return !wasStopping
            })
        else { return }
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
