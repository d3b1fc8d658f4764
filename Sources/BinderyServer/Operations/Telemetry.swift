import Bindery
import CoreMetrics
import Foundation
import Logging
import Prometheus

/// What the server tells its operator: one log line per request and per
/// stream opened and closed, and the metrics `GET /metrics` shows.
///
/// The metrics are swift-metrics instruments made by a Prometheus factory on
/// the server's own registry, so two servers in one process do not mix their
/// counts and nothing global is bootstrapped. The hot path (events delivered,
/// bytes written) adds once per write of a stream, not once per event.
///
/// Thread safety: every method may be called from any thread.
final class Telemetry: Sendable {
    let logger: Logger
    /// The registry `/metrics` renders; nil when metrics are off.
    let registry: PrometheusCollectorRegistry?
    private let factory: PrometheusMetricsFactory?

    private let eventsPublished: CoreMetrics.Counter?
    private let eventsDelivered: CoreMetrics.Counter?
    private let streamBytes: CoreMetrics.Counter?
    private let streamsOpened: CoreMetrics.Counter?
    private let streamsClosed: [StreamEnding: CoreMetrics.Counter]
    private let refusals: [Refusal: CoreMetrics.Counter]
    private let connections: CoreMetrics.Gauge?
    private let openStreams: CoreMetrics.Gauge?
    private let storedSessions: CoreMetrics.Gauge?
    private let sessionsRebuilt: CoreMetrics.Counter?
    private let rebuiltAtLastScrape = Locked<UInt64>(0)
    /// Instruments with a label value known only when it first happens.
    private let byStatus = Locked<[Int: CoreMetrics.Counter]>([:])
    private let inputs = Locked<[String: (count: CoreMetrics.Counter, latency: CoreMetrics.Timer)]>([:])
    private let sessions = Locked<[String: CoreMetrics.Gauge]>([:])
    /// By error code: the server's own codes only, a short list.
    private let inputFailures = Locked<[String: CoreMetrics.Counter]>([:])
    /// Whether a name from a request's path is a registered ViewModel: only
    /// those get series of their own, so no client can make new ones.
    private let isRegistered: @Sendable (String) -> Bool

    init(logger: Logger, metrics: Bool, isRegistered: @escaping @Sendable (String) -> Bool = { _ in true }) {
        self.logger = logger
        self.isRegistered = isRegistered
        guard metrics else {
            (registry, factory) = (nil, nil)
            (eventsPublished, eventsDelivered, streamBytes, streamsOpened) = (nil, nil, nil, nil)
            (streamsClosed, refusals, connections, openStreams) = ([:], [:], nil, nil)
            (storedSessions, sessionsRebuilt) = (nil, nil)
            return
        }
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Inputs take microseconds to a few hundred milliseconds.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
        ]
        self.registry = registry
        self.factory = factory
        eventsPublished = Counter(label: "bindery_events_published_total", factory: factory)
        eventsDelivered = Counter(label: "bindery_events_delivered_total", factory: factory)
        streamBytes = Counter(label: "bindery_stream_bytes_written_total", factory: factory)
        streamsOpened = Counter(label: "bindery_streams_opened_total", factory: factory)
        streamsClosed = Dictionary(
            uniqueKeysWithValues: StreamEnding.allCases.map {
                ($0, Counter(label: "bindery_streams_closed_total", dimensions: [("reason", $0.rawValue)], factory: factory))
            })
        refusals = Dictionary(
            uniqueKeysWithValues: Refusal.allCases.map {
                ($0, Counter(label: "bindery_refusals_total", dimensions: [("reason", $0.rawValue)], factory: factory))
            })
        connections = Gauge(label: "bindery_connections", factory: factory)
        openStreams = Gauge(label: "bindery_streams_open", factory: factory)
        storedSessions = Gauge(label: "bindery_sessions_stored", factory: factory)
        sessionsRebuilt = Counter(label: "bindery_sessions_rebuilt_total", factory: factory)
    }

    // MARK: Requests

    /// A response was queued: the request's log line, and its status counted
    /// (an input's latency too).
    func responded(method: String, route: RouteLabel, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        // `registry`, not `factory`, says whether metrics are on: unwrapping the
        // factory copies a struct of references, retained and released per response.
        guard registry != nil else { return log(method: method, route: route, status: status, elapsed: elapsed) }
        byStatus.withLock { counters -> CoreMetrics.Counter? in
            if let counter = counters[status] { return counter }
            guard let factory else { return nil }
            let counter = Counter(label: "bindery_http_responses_total", dimensions: [("status", String(status))], factory: factory)
            counters[status] = counter
            return counter
        }?.increment()
        if method == "POST", let viewModel = route.inputViewModel,
            let instruments = inputs.withLock({ table -> (count: CoreMetrics.Counter, latency: CoreMetrics.Timer)? in
                if let found = table[viewModel] { return found }
                guard isRegistered(viewModel), let factory else { return nil }
                let made = (
                    Counter(label: "bindery_inputs_total", dimensions: [("view_model", viewModel)], factory: factory),
                    CoreMetrics.Timer(label: "bindery_input_duration_seconds", dimensions: [("view_model", viewModel)], factory: factory)
                )
                table[viewModel] = made
                return made
            })
        {
            instruments.count.increment()
            instruments.latency.recordNanoseconds(elapsed.nanoseconds)
        }
        log(method: method, route: route, status: status, elapsed: elapsed)
    }

    /// The request's log line, at info level.
    private func log(method: String, route: RouteLabel, status: Int, elapsed: Duration) {
        guard logger.logLevel <= .info else { return }
        let hundredths = elapsed.nanoseconds / 10_000
        let fraction = hundredths % 100
        var metadata: Logger.Metadata = [
            "method": "\(method)", "path": "\(route.template)", "status": "\(status)",
            "ms": "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)",
        ]
        if let session = route.session { metadata["session"] = "\(session)" }
        logger.info("request", metadata: metadata)
    }

    /// An input the session refused: its code and message, at notice level;
    /// one whose work failed (5xx) counted by its code too.
    func inputRefused(_ route: RouteLabel, status: Int, body: Data) {
        let failed = status >= 500 && registry != nil
        guard logger.logLevel <= .notice || failed else { return }
        let error = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        if failed, let code = error?["error"] as? String {
            inputFailures.withLock { counters -> CoreMetrics.Counter? in
                if let counter = counters[code] { return counter }
                guard let factory else { return nil }
                let counter = Counter(label: "bindery_inputs_failed_total", dimensions: [("error", code)], factory: factory)
                counters[code] = counter
                return counter
            }?.increment()
        }
        guard logger.logLevel <= .notice else { return }
        logger.notice(
            "input refused",
            metadata: [
                "path": "\(route.template)", "session": "\(route.session ?? "")", "status": "\(status)",
                "error": "\(error?["error"] as? String ?? "")", "detail": "\(error?["message"] as? String ?? "")",
            ])
    }

    /// The edge turned a request or a connection away: counted by reason, and
    /// logged at notice level with the client's address.
    func refused(_ reason: Refusal, client: String, detail: String) {
        refusals[reason]?.increment()
        guard logger.logLevel <= .notice else { return }
        logger.notice("refused", metadata: ["reason": "\(reason.rawValue)", "client": "\(client)", "detail": "\(detail)"])
    }

    // MARK: Streams

    /// A stream started on `sessions` (`<vm>/<sid>` each).
    func streamOpened(_ sessions: [String]) {
        streamsOpened?.increment()
        guard logger.logLevel <= .info else { return }
        logger.info("stream opened", metadata: ["sessions": "\(sessions.joined(separator: ","))"])
    }

    /// A stream ended after `lifetime`, having written `events` events in `bytes` bytes.
    func streamClosed(_ sessions: [String], reason: StreamEnding, lifetime: Duration, events: Int, bytes: Int) {
        streamsClosed[reason]?.increment()
        guard logger.logLevel <= .info else { return }
        logger.info(
            "stream closed",
            metadata: [
                "sessions": "\(sessions.joined(separator: ","))", "reason": "\(reason.rawValue)",
                "seconds": "\(String(format: "%.1f", Double(lifetime.nanoseconds) / 1e9))", "events": "\(events)", "bytes": "\(bytes)",
            ])
    }

    /// A stream wrote `events` events in `bytes` bytes (added once per write).
    func delivered(events: Int, bytes: Int) {
        if events > 0 { eventsDelivered?.increment(by: Int64(events)) }
        streamBytes?.increment(by: Int64(bytes))
    }

    /// The runtime's count of events published when last scraped (the counter goes up by the difference).
    private let publishedAtLastScrape = Locked<UInt64>(0)

    // MARK: Scrapes

    /// The Prometheus text of every metric, with the gauges read now.
    func scrape(
        connections: Int, streams: Int, sessions counts: [String: Int], published: UInt64, stored: Int = 0, rebuilt: UInt64 = 0
    ) -> Data? {
        guard let registry, let factory else { return nil }
        let newlyRebuilt = rebuiltAtLastScrape.withLock { last -> UInt64 in
            defer { last = max(last, rebuilt) }
            return rebuilt > last ? rebuilt - last : 0
        }
        if newlyRebuilt > 0 { sessionsRebuilt?.increment(by: Int64(newlyRebuilt)) }
        storedSessions?.record(stored)
        let newlyPublished = publishedAtLastScrape.withLock { last -> UInt64 in
            defer { last = max(last, published) }
            return published > last ? published - last : 0
        }
        if newlyPublished > 0 { eventsPublished?.increment(by: Int64(newlyPublished)) }
        self.connections?.record(connections)
        openStreams?.record(streams)
        let gauges = sessions.withLock { gauges in
            for name in counts.keys where gauges[name] == nil {
                gauges[name] = Gauge(label: "bindery_sessions", dimensions: [("view_model", name)], factory: factory)
            }
            return gauges
        }
        for (name, count) in counts { gauges[name]?.record(count) }
        return Data(registry.emitToBuffer())
    }
}
