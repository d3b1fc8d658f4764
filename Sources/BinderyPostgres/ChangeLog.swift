import Foundation
import Logging
import Synchronization

/// Changes to shared things ("topics": a todo list, a shared ViewModel's
/// outputs) that every node of a cluster applies in one order, each change
/// with an offset, in PostgreSQL (Centrifugo's PostgreSQL broker, in short).
///
/// - A writer appends in its own transaction, with the change it makes:
///   `lock(_:in:)` takes the topic's row lock and the next offset (so that
///   offsets are gapless and commit in their order), `append` stores the
///   change and sends one `NOTIFY` whose payload is only `topic offset`,
///   never the change: no 8,000-byte limit. After the commit the writer
///   hands the change over here (`committed`), so its own node applies it
///   at once, without reading it back.
/// - Every node follows its topics: a notification (or a writer's hand-over)
///   of an offset it lacks makes it read every change after what it has, in
///   order; a lost listening connection, and every `pollInterval`, make it
///   read all its topics again. Each change is delivered exactly once, in
///   offset order, on one queue.
/// - Changes are kept for `retained` offsets per topic. A node further
///   behind than that (or a topic it has never read) is told `behind`, and
///   reloads the whole value with its offset (`resume`).
public final class ChangeLog: Sendable {
    /// The `NOTIFY` channel.
    static let channel = "bindery_changes"

    /// How many changes a topic keeps, at least.
    public let retained: Int64
    private let reader: PostgresDatabase
    private let listener = Mutex<PostgresListener?>(nil)
    private let logger: Logger
    /// Delivers changes, one topic's in order; only this queue touches `Follower.next` and `stash`.
    private let deliveries = DispatchQueue(label: "bindery.changes.deliver")
    private let followers = Mutex<[String: Follower]>([:])
    /// Handlers of other channels the listener listens on, by channel (`listen`).
    private let others = Mutex<[String: @Sendable (String) -> Void]>([:])
    private let url: String
    private let pollInterval: Duration
    /// Whether the last read failed: an outage is logged once, and its end.
    private let readFailing = Atomic<Bool>(false)

    private final class Follower: @unchecked Sendable {
        /// The offset of the next change to deliver.
        var next: Int64
        /// Changes that came before the ones before them.
        var stash: [Int64: Data] = [:]
        let deliver: @Sendable (Int64, Data) -> Void
        let behind: @Sendable () -> Void
        /// Whether `behind` was called and `resume` has not come yet (delivers nothing meanwhile).
        var waitingForResume = false
        init(next: Int64, deliver: @escaping @Sendable (Int64, Data) -> Void, behind: @escaping @Sendable () -> Void) {
            self.next = next
            self.deliver = deliver
            self.behind = behind
        }
    }

    /// The log in the database at `url`, its tables made if missing; not yet listening (`start`).
    public init(url: String, retained: Int64 = 10_000, pollInterval: Duration = .seconds(1), logger: Logger) throws {
        self.retained = retained
        self.url = url
        self.pollInterval = pollInterval
        self.logger = logger
        reader = PostgresDatabase(url: url, name: "changes")
        try PostgresSchema.migrate(reader)
    }

    /// Hands each notification on `channel` to `handler` (on the listener's
    /// thread: it must not block), from `start` on: a node listens on one connection.
    public func listen(on channel: String, _ handler: @escaping @Sendable (String) -> Void) {
        others.withLock { $0[channel] = handler }
    }

    /// Starts listening for other nodes' changes, and on the channels given to `listen`.
    public func start() {
        let others = others.withLock { $0 }
        let listener = PostgresListener(url: url, channels: [Self.channel] + others.keys.sorted(), pollInterval: pollInterval, logger: logger) {
            [weak self] channel, payload in
            if let channel, channel != Self.channel, let payload {
                others[channel]?(payload)
            } else {
                self?.wake(payload)
            }
        }
        self.listener.withLock { $0 = listener }
        listener.start()
    }

    /// Stops listening.
    public func stop() { listener.withLock { $0 }?.stop() }

    /// Whether this node hears from the database: it listens, and its last
    /// read of changes worked. While it does not, what the node shows of
    /// shared values may be behind (it catches up once the database is back).
    public var isConnected: Bool {
        listenerBackendPID != 0 && !readFailing.load(ordering: .relaxed)
    }

    /// The listening connection's server process (for tests that end it).
    public var listenerBackendPID: Int32 { listener.withLock { $0 }?.backendPID ?? 0 }

    // MARK: Writing, in the writer's transaction

    /// Takes `topic`'s lock for the rest of `db`'s transaction and returns the
    /// offset the change about to be appended gets: every change before it
    /// has committed, and none after it can commit before this transaction ends.
    public static func lock(_ topic: String, in db: PostgresConnection) throws -> Int64 {
        try db.execute("INSERT INTO bindery_topic (topic, last_offset) VALUES ($1, 0) ON CONFLICT (topic) DO NOTHING", [.text(topic)])
        guard
            let offset = try db.execute("UPDATE bindery_topic SET last_offset = last_offset + 1 WHERE topic = $1 RETURNING last_offset", [.text(topic)]).first?[
                0
            ].int
        else { throw PostgresError(message: "topic '\(topic)' has no row", sqlState: nil, connectionLost: false) }
        return offset
    }

    /// `topic`'s last committed offset, as `db` sees it (0 if it has none).
    public static func lastOffset(of topic: String, in db: PostgresConnection) throws -> Int64 {
        try db.execute("SELECT last_offset FROM bindery_topic WHERE topic = $1", [.text(topic)]).first?[0].int ?? 0
    }

    /// The changes of `topic` after `offset`, up to `last` if given, in order
    /// (at most `limit`): the caller checks that the first is `offset + 1`
    /// (older ones may be gone).
    public static func changes(of topic: String, after offset: Int64, through last: Int64? = nil, limit: Int = 1_000, in db: PostgresConnection) throws -> [(
        offset: Int64, payload: Data
    )] {
        try db.execute(
            #"SELECT "offset", payload FROM bindery_change WHERE topic = $1 AND "offset" > $2 AND "offset" <= $3 ORDER BY "offset" LIMIT $4"#,
            [.text(topic), .int(offset), .int(last ?? Int64.max), .int(Int64(limit))]
        ).map { ($0[0].int ?? 0, $0[1].bytes ?? Data()) }
    }

    /// Stores `payload` as `topic`'s change at `offset` (from `lock`), wakes
    /// every node when the transaction commits, and forgets changes older
    /// than `retained` now and then.
    public func append(_ payload: Data, to topic: String, at offset: Int64, in db: PostgresConnection) throws {
        try db.execute(#"INSERT INTO bindery_change (topic, "offset", payload) VALUES ($1, $2, $3)"#, [.text(topic), .int(offset), .bytes(payload)])
        try db.execute("SELECT pg_notify($1, $2)", [.text(Self.channel), .text("\(offset) \(topic)")])
        if offset % 1_000 == 0 {
            try db.execute(#"DELETE FROM bindery_change WHERE topic = $1 AND "offset" <= $2"#, [.text(topic), .int(offset - retained)])
        }
    }

    /// Hands over a change this node committed (after the commit), so that it
    /// is delivered in its place without being read back.
    public func committed(_ payload: Data, to topic: String, at offset: Int64) {
        deliveries.async { [self] in receive(topic, [(offset, payload)]) }
    }

    // MARK: Following

    /// Delivers every change of `topic` after `offset` to `deliver`, in order,
    /// once each, on this log's delivery queue; `behind` when the changes
    /// after `offset` are no longer all kept (then nothing is delivered until
    /// `resume`). Replaces an earlier follower of the topic.
    public func follow(
        _ topic: String, after offset: Int64, deliver: @escaping @Sendable (Int64, Data) -> Void, behind: @escaping @Sendable () -> Void
    ) {
        let follower = Follower(next: offset + 1, deliver: deliver, behind: behind)
        followers.withLock { $0[topic] = follower }
        // Whatever committed between the caller's read and now.
        catchUp([topic])
    }

    /// Stops delivering `topic`'s changes.
    public func unfollow(_ topic: String) {
        followers.withLock { $0[topic] = nil }
    }

    /// Goes on delivering `topic`'s changes after `offset` (a whole value read
    /// at that offset, after `behind`).
    public func resume(_ topic: String, after offset: Int64) {
        deliveries.async { [self] in
            guard let follower = followers.withLock({ $0[topic] }) else { return }
            follower.waitingForResume = false
            follower.next = offset + 1
            follower.stash = follower.stash.filter { $0.key > offset }
            deliverStashed(follower)
            catchUp([topic])
        }
    }

    /// A notification (`"offset topic"`), or nil: read everything followed.
    private func wake(_ key: String?) {
        guard let key else { return catchUp(followers.withLock { Array($0.keys) }) }
        guard let space = key.firstIndex(of: " "), let offset = Int64(key[..<space]) else { return }
        let topic = String(key[key.index(after: space)...])
        deliveries.async { [self] in
            // Its own changes (handed over already) and topics it does not follow need no read.
            guard let follower = followers.withLock({ $0[topic] }), offset >= follower.next, follower.stash[offset] == nil else { return }
            catchUp([topic])
        }
    }

    /// Reads what `topics` have after what was delivered, on the reader's connection.
    private func catchUp(_ topics: [String]) {
        guard !topics.isEmpty else { return }
        reader.async { [self] connection in
            guard case .success(let db) = connection else {
                if case .failure(let error) = connection { readFailed(error) }
                return
            }
            for topic in topics {
                // Read on the delivery queue's latest word; a change delivered meanwhile is dropped as a duplicate.
                guard let next = deliveries.sync(execute: { followers.withLock { $0[topic] }.flatMap { $0.waitingForResume ? nil : $0.next } }) else {
                    continue
                }
                do {
                    var after = next - 1
                    while true {
                        // The last offset first: every change up to it has committed, so the read below sees it unless it is gone.
                        let last = try Self.lastOffset(of: topic, in: db)
                        guard last > after else { break }
                        let changes = try Self.changes(of: topic, after: after, through: last, in: db)
                        guard changes.first?.offset == after + 1, let end = changes.last?.offset else {
                            deliveries.async { [self] in fallBehind(topic) }
                            break
                        }
                        deliveries.async { [self] in receive(topic, changes) }
                        guard end < last else { break }
                        after = end
                    }
                } catch {
                    // The next wake (a notification, the poll, the listener back) reads again.
                    return readFailed(error)
                }
            }
            if readFailing.exchange(false, ordering: .relaxed) { logger.info("changes read again") }
        }
    }

    private func readFailed(_ error: Error) {
        guard !readFailing.exchange(true, ordering: .relaxed) else { return }
        logger.warning("changes not read; reading them by offset once the database is back", metadata: ["error": "\(error)"])
    }

    /// Delivers `changes` (in offset order) in their place: now if they are
    /// next, later if an earlier one is missing (which is then read).
    private func receive(_ topic: String, _ changes: [(offset: Int64, payload: Data)]) {
        guard let follower = followers.withLock({ $0[topic] }), !follower.waitingForResume else { return }
        for (offset, payload) in changes where offset >= follower.next { follower.stash[offset] = payload }
        deliverStashed(follower)
        if !follower.stash.isEmpty {
            // Something before the earliest stashed change is missing: read it (or learn it is gone).
            catchUp([topic])
        }
    }

    private func deliverStashed(_ follower: Follower) {
        while let payload = follower.stash.removeValue(forKey: follower.next) {
            follower.deliver(follower.next, payload)
            follower.next += 1
        }
    }

    private func fallBehind(_ topic: String) {
        guard let follower = followers.withLock({ $0[topic] }), !follower.waitingForResume else { return }
        // Read again now: the gap may have been a change not yet visible to the read.
        follower.waitingForResume = true
        follower.stash = [:]
        logger.info("a shared value's changes are no longer kept; reading it whole", metadata: ["topic": "\(topic)"])
        follower.behind()
    }
}
