import CLibPQ
import Foundation
import Logging
import Synchronization

/// Listens on PostgreSQL channels (`LISTEN`) on a connection of its own, on
/// a thread of its own, and calls `wake` with each notification's channel
/// and payload.
///
/// A notification only wakes: what changed is read by offset from a table
/// (`ChangeLog`), so a lost notification loses nothing. `wake(nil)` comes
/// every `pollInterval` without one (the safety net) and after the
/// connection was lost and made again (everything sent meanwhile was
/// missed): the reader then catches up on everything it follows. (With no
/// key, `wake` gets nil for both.)
public final class PostgresListener: Sendable {
    private let url: String
    private let channels: [String]
    private let pollInterval: Duration
    private let logger: Logger
    private let wake: @Sendable (_ channel: String?, _ payload: String?) -> Void
    private let stopped = Atomic<Bool>(false)
    private let backend = Atomic<Int32>(0)
    private let started = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// A listener on `channels` (letters, digits and `_` only) of the database
    /// at `url`, not yet started.
    public init(
        url: String, channels: [String], pollInterval: Duration = .seconds(1), logger: Logger,
        wake: @escaping @Sendable (_ channel: String?, _ payload: String?) -> Void
    ) {
        precondition(
            channels.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } }, "a channel name is letters, digits and _")
        self.url = url
        self.channels = channels
        self.pollInterval = pollInterval
        self.logger = logger
        self.wake = wake
    }

    /// The server process of the listening connection (0 while none): what
    /// `pg_terminate_backend` would end.
    public var backendPID: Int32 { backend.load(ordering: .relaxed) }

    /// Starts listening, on a thread of its own.
    public func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "bindery.listen"
        started.store(true, ordering: .relaxed)
        thread.start()
    }

    /// Stops listening; returns once the thread has ended (within `pollInterval`).
    public func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        if started.load(ordering: .relaxed) { finished.wait() }
    }

    private func run() {
        var failures = 0
        while !stopped.load(ordering: .relaxed) {
            do {
                let connection = try PostgresConnection(url: url)
                for channel in channels { try connection.execute("LISTEN \(channel)") }
                backend.store(connection.backendPID, ordering: .relaxed)
                if failures > 0 { logger.info("listening again", metadata: ["channels": "\(channels)"]) }
                failures = 0
                // Whatever was sent before LISTEN took effect was missed: catch up.
                wake(nil, nil)
                try listen(on: connection)
            } catch {
                backend.store(0, ordering: .relaxed)
                failures += 1
                if failures == 1 {
                    logger.warning(
                        "listening connection lost; catching up by offset when it is back", metadata: ["channels": "\(channels)", "error": "\(error)"])
                }
                // 50 ms doubling to 2 s, so that a restarted server is found soon.
                let pause = min(2_000, 50 << min(failures, 6))
                for _ in 0..<(pause / 50) where !stopped.load(ordering: .relaxed) { usleep(50_000) }
            }
        }
    }

    /// Waits on the socket until notifications come (each a wake), a poll
    /// interval passes (a wake without a key), or the connection fails (throws).
    private func listen(on connection: PostgresConnection) throws {
        let timeout = Int32(max(1, pollInterval.components.seconds * 1_000 + pollInterval.components.attoseconds / 1_000_000_000_000_000))
        // Stops are noticed at least every 250 ms.
        let slice = min(timeout, 250)
        var waited: Int32 = 0
        while !stopped.load(ordering: .relaxed) {
            var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, slice)
            if ready < 0 && errno != EINTR { throw PostgresError(message: "poll: \(String(cString: strerror(errno)))", sqlState: nil, connectionLost: true) }
            if ready > 0 {
                let payloads = try connection.notifications()
                guard connection.isOK else { throw PostgresError(message: "the listening connection closed", sqlState: nil, connectionLost: true) }
                for (channel, payload) in payloads { wake(channel, payload) }
                waited = 0
            } else {
                waited += slice
                if waited >= timeout {
                    waited = 0
                    wake(nil, nil)
                }
            }
        }
    }
}
