import Bindery
import Foundation
import Logging

/// Every setting of `serve`, in one table: the command line, the environment
/// and `--help` are all made from it, so they cannot disagree.
///
/// Precedence: a command-line option, then its environment variables, then the
/// default. Values are checked here: a bad one is a usage error naming the
/// option, never a server that starts half-configured.
public enum ServeOptions {
    /// Why the options did not give a configuration.
    public enum Outcome: Error, Equatable {
        /// `--help` or `-h`: print `ServeOptions.help`.
        case help
        /// `--version`: print `BinderyVersion.line`.
        case version
        /// A usage error, with the message to print.
        case invalid(String)
    }

    /// The configuration `arguments` and `environment` describe over `defaults`.
    public static func configuration(
        arguments: [String],
        environment: [String: String] = [:],
        defaults: ServerConfiguration = ServerConfiguration()
    ) throws(Outcome) -> ServerConfiguration {
        var configuration = defaults
        var given: [String: String] = [:]
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" { throw .help }
            if argument == "--version" { throw .version }
            guard argument.hasPrefix("--") else { throw .invalid("unexpected argument '\(argument)' (see --help)") }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = all.first(where: { $0.name == name }) else {
                throw .invalid("unknown option '--\(name)' (see --help)")
            }
            if option.placeholder == nil {
                given[name] = value ?? "true"
            } else if let value {
                given[name] = value
            } else {
                guard index < arguments.endIndex else { throw .invalid("--\(name) needs a value \(option.placeholder!)") }
                given[name] = arguments[index]
                index += 1
            }
        }
        for option in all {
            let fromEnvironment = option.environment.lazy.compactMap { variable in environment[variable].map { (variable, $0) } }.first
            let source: String
            let value: String
            if let argument = given[option.name] {
                (source, value) = ("--\(option.name)", argument)
            } else if let (variable, text) = fromEnvironment, !text.isEmpty {
                (source, value) = (variable, text)
            } else {
                continue
            }
            do {
                try option.apply(&configuration, value)
            } catch {
                throw .invalid("\(source): \(error)")
            }
        }
        if configuration.sessionIDFromProxy && configuration.trustedProxies.isEmpty {
            throw .invalid("--session-id-from-proxy: needs --trusted-proxies, the proxy whose X-Bindery-Session-Id to take")
        }
        return configuration
    }

    /// The text of `--help` for command `command`, with `defaults` shown.
    public static func help(command: String, defaults: ServerConfiguration = ServerConfiguration()) -> String {
        var lines = [
            "USAGE: \(command) [options]",
            "",
            "Serves the app's ViewModels over HTTP and server-sent events until SIGINT or",
            "SIGTERM, then drains: streams end so pages resume, requests in flight finish.",
            "Every option can also be set in the environment (shown under it); an option",
            "on the command line wins.",
            "",
            "OPTIONS:",
        ]
        for option in all {
            let usage = "  --\(option.name)" + (option.placeholder.map { " \($0)" } ?? "")
            lines.append(usage.padding(toLength: max(usage.count + 2, 34), withPad: " ", startingAt: 0) + option.help)
            let current = option.current(defaults)
            lines.append(
                String(repeating: " ", count: 34) + option.environment.joined(separator: ", ")
                    + (current.isEmpty ? "" : " (default: \(current))"))
        }
        lines.append("  --version                       Shows which Bindery this is.")
        lines.append("  -h, --help                      Shows this help.")
        return lines.joined(separator: "\n")
    }

    /// The table.
    public static let all: [ServeOption] = [
        value(
            "port", environment: ["BINDERY_PORT", "PORT"], "<port>", "TCP port (0 picks a free one).",
            get: { "\($0.port)" }
        ) { $0.port = try number($1, in: 0...65_535) },
        value(
            "host", "<ipv4>", "Address to listen on: 127.0.0.1 (loopback only) or 0.0.0.0 (every address).",
            get: { $0.host }
        ) { configuration, text in
            var address = in_addr()
            guard inet_pton(AF_INET, text, &address) == 1 else { throw Problem("expected an IPv4 address such as 127.0.0.1, got '\(text)'") }
            configuration.host = text
        },
        flag("all-interfaces", "Listen on every address (0.0.0.0); for containers.") { $0.host = "0.0.0.0" },
        value(
            "allowed-hosts", "<names>", "Host names the server answers to (a,.b for b and under it,* any); IP addresses always.",
            get: { $0.allowedHosts?.joined(separator: ",") ?? AllowedHosts.loopback.description }
        ) { configuration, text in
            configuration.allowedHosts = try AllowedHosts(parsing: text).patterns
        },
        value(
            "trusted-proxies", "<addresses>", "Proxies (10.0.0.1, 10.0.0.0/8, ::1) whose X-Forwarded-For names the client.",
            get: { $0.trustedProxies.joined(separator: ",") }
        ) { configuration, text in
            _ = try TrustedProxies(parsing: text)
            configuration.trustedProxies = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        },
        flag(
            "session-id-from-proxy",
            "Give a session created through a trusted proxy the id in its X-Bindery-Session-Id (32 hex digits; a cluster's nginx)."
        ) { $0.sessionIDFromProxy = true },
        value(
            "content-security-policy", "<policy>", "Content-Security-Policy of every HTML page (\"\" sends none).",
            get: { $0.contentSecurityPolicy }
        ) { $0.contentSecurityPolicy = $1 },
        value(
            "public-directory", "<path>", "Folder of the app's own pages and files.",
            get: { $0.publicDirectory.relativePath }
        ) { $0.publicDirectory = URL(fileURLWithPath: $1) },
        value(
            "database", "<path|url>", "The app's database: a SQLite file (:memory: keeps it in memory), or postgres://… (a cluster).",
            get: { $0.databasePath }
        ) { $0.databasePath = $1 },
        seconds("heartbeat", "Seconds between keep-alive comments on each stream.", in: 1...3_600, \.heartbeat),
        value(
            "max-sessions", "<n>", "Most live sessions; more get 503.",
            get: { "\($0.runtime.maxSessions)" }
        ) { $0.runtime.maxSessions = try number($1, in: 1...10_000_000) },
        value(
            "max-sessions-per-client", "<n>", "Most live sessions made for one client address; more get 429.",
            get: { "\($0.runtime.maxSessionsPerClient)" }
        ) { $0.runtime.maxSessionsPerClient = try number($1, in: 1...10_000_000) },
        value(
            "session-rate", "<per-second>", "Sessions one client may create a second (after the burst); faster gets 429.",
            get: { "\(Int($0.sessionCreationRate))" }
        ) { $0.sessionCreationRate = Double(try number($1, in: 1...1_000_000) as Int) },
        value(
            "session-burst", "<n>", "Sessions one client may create at once before --session-rate applies.",
            get: { "\($0.sessionCreationBurst)" }
        ) { $0.sessionCreationBurst = try number($1, in: 1...10_000_000) },
        value(
            "max-streams", "<n>", "Most open event streams; more get 503.",
            get: { "\($0.maxStreams)" }
        ) { $0.maxStreams = try number($1, in: 1...10_000_000) },
        value(
            "max-streams-per-session", "<n>", "Most open event streams on one session; more get 503.",
            get: { "\($0.runtime.maxStreamsPerSession)" }
        ) { $0.runtime.maxStreamsPerSession = try number($1, in: 1...10_000_000) },
        value(
            "max-connections", "<n>", "Most open connections (streams included); more get 503 at once.",
            get: { "\($0.maxConnections)" }
        ) { $0.maxConnections = try number($1, in: 1...10_000_000) },
        value(
            "max-connections-per-client", "<n>", "Most open connections from one client address; more get 429.",
            get: { "\($0.maxConnectionsPerClient)" }
        ) { $0.maxConnectionsPerClient = try number($1, in: 1...10_000_000) },
        seconds("header-timeout", "Seconds a request's headers may take (also a kept-alive connection's idle time).", in: 1...3_600, \.headerTimeout),
        seconds("body-timeout", "Seconds a request's body may take after its headers.", in: 1...3_600, \.bodyTimeout),
        seconds("stalled-stream-timeout", "Seconds a stream's client may take nothing while events wait.", in: 1...3_600, \.stalledStreamTimeout),
        value(
            "stream-send-buffer", "<bytes>",
            "Bytes the kernel may hold to send on a stream's socket: what a client that stops reading pins until it is found stalled.",
            get: { "\($0.streamSendBufferBytes)" }
        ) { $0.streamSendBufferBytes = try number($1, in: 4_096...16_777_216) },
        value(
            "threads", "<n>", "libmicrohttpd worker threads (default: one per CPU the process may use).",
            get: { "\($0.threads)" }
        ) { $0.threads = try number($1, in: 1...1_024) },
        value(
            "max-body", "<bytes>", "Largest request body; larger gets 413.",
            get: { "\($0.maxBodyBytes)" }
        ) { $0.maxBodyBytes = try number($1, in: 0...(1 << 30)) },
        seconds(
            "session-idle", "Seconds before a session with no stream and no request leaves memory (a kept one stays stored).", in: 1...31_536_000,
            \.runtime.sessionIdleTimeout),
        seconds(
            "unused-session-idle", "Seconds before a session nobody streamed from or sent an input to is disposed.", in: 1...31_536_000,
            \.runtime.unusedSessionTimeout),
        seconds("sign-in-lifetime", "Seconds a browser's sign-in lasts from its making, used or not.", in: 60...31_536_000, \.signInLifetime),
        seconds("sign-in-idle", "Seconds a browser's sign-in lasts unused.", in: 60...31_536_000, \.signInIdleLimit),
        seconds(
            "script-token-lifetime", "Seconds a script's token (Authorization: Bearer) lasts from its making.", in: 60...315_360_000, \.scriptTokenLifetime),
        value(
            "upload-directory", "<path>", "Folder uploads arrive in before their input takes them (default: a temporary one of the server's own).",
            get: { $0.uploadDirectory?.path ?? "" }
        ) { $0.uploadDirectory = URL(fileURLWithPath: $1) },
        flag("no-first-paint", "Serve pages as written: their values come once the script has connected (default: in the page).") {
            $0.firstPaint = false
        },
        milliseconds(
            "first-paint-wait", "Milliseconds a page's new session may take over its start inputs before the page goes without them.", in: 0...60_000,
            \.firstPaintWait),
        flag("no-session-store", "Keep sessions in memory only: a restart loses them (default: in the app's database).") {
            $0.keepsSessions = false
        },
        milliseconds(
            "session-save-interval", "Milliseconds between saves of the sessions that changed (kill -9 loses at most about this).", in: 10...600_000,
            \.runtime.sessionSaveInterval),
        seconds(
            "shared-lease", "In a cluster, seconds before another node takes over a shared ViewModel whose node stopped renewing its lease.", in: 2...600,
            \.runtime.sharedSessionLease),
        seconds(
            "shared-answer-timeout", "In a cluster, seconds an input to a shared ViewModel waits for its owner's answer before a 503 (it may still apply).",
            in: 1...600, \.runtime.sharedSessionAnswerTimeout),
        seconds(
            "held-answer-timeout", "Seconds an input's answer waits for the work that holds it (a durable write) before a 504; the work goes on.", in: 1...600,
            \.runtime.heldAnswerTimeout),
        value(
            "input-keys-per-session", "<n>",
            "Inputs sent with an Idempotency-Key that each session remembers, with their answers: a repeat is not applied again.",
            get: { "\($0.runtime.inputKeysPerSession)" }
        ) { $0.runtime.inputKeysPerSession = try number($1, in: 1...100_000) },
        seconds(
            "stored-session-lifetime", "Seconds a stored session is kept after it was last asked for or streamed from.", in: 1...31_536_000,
            \.runtime.storedSessionLifetime),
        value(
            "max-stored-sessions", "<n>", "Most sessions kept in the store; beyond, the least recently seen are deleted.",
            get: { "\($0.runtime.maxStoredSessions)" }
        ) { $0.runtime.maxStoredSessions = try number($1, in: 1...1_000_000_000) },
        value(
            "connection-memory", "<bytes>", "libmicrohttpd's memory pool per connection (headers, write buffer).",
            get: { "\($0.connectionMemoryBytes)" }
        ) { $0.connectionMemoryBytes = try number($1, in: 4_096...(1 << 24)) },
        value(
            "log-format", "<text|json>", "Log lines as text for a terminal, or as JSON objects, one per line.",
            get: { _ in "text" }
        ) { configuration, text in
            guard let format = LogFormat(rawValue: text.lowercased()) else { throw Problem("expected text or json, got '\(text)'") }
            configuration.runtime.logger = LineLogHandler.logger(format: format, level: configuration.runtime.logger.logLevel)
        },
        value(
            "log-level", "<level>", "Least severe level logged: trace, debug, info (a line per request), notice, warning, error.",
            get: { "\($0.runtime.logger.logLevel)" }
        ) { configuration, text in
            guard let level = Logger.Level(rawValue: text.lowercased()) else {
                throw Problem("expected one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")
            }
            configuration.runtime.logger.logLevel = level
            // A logger that logs nothing keeps no level: asking for one means lines on standard error.
            if configuration.runtime.logger.logLevel != level { configuration.runtime.logger = LineLogHandler.logger(level: level) }
        },
        flag("no-metrics", "Turn off the counters behind /metrics (which then answers 404).") { $0.metrics = false },
        flag(
            "development",
            "Development only: pages show ViewModels that fail (and, under `dev`, builds that fail and crashes); sessions keep what they received and sent, and GET /api/<vm>/<sid>/test.swift replays one as a Swift test."
        ) {
            $0.development = true
            $0.runtime.recordsTranscripts = true
        },
        seconds("shutdown-grace", "How long stopping waits for busy sessions before answering 503.", in: 0...3_600, \.shutdownGrace),
    ]

    private struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private static func value(
        _ name: String, environment: [String]? = nil, _ placeholder: String, _ help: String,
        get: @escaping @Sendable (ServerConfiguration) -> String,
        set: @escaping @Sendable (inout ServerConfiguration, String) throws -> Void
    ) -> ServeOption {
        ServeOption(name: name, environment: environment ?? [variable(name)], placeholder: placeholder, help: help, apply: set, current: get)
    }

    /// An option of whole seconds within `range`, the configuration's `duration`.
    private static func seconds(
        _ name: String, _ help: String, in range: ClosedRange<Int>, _ duration: WritableKeyPath<ServerConfiguration, Duration> & Sendable
    ) -> ServeOption {
        value(name, "<seconds>", help, get: { "\($0[keyPath: duration].components.seconds)" }) {
            $0[keyPath: duration] = .seconds(try number($1, in: range) as Int)
        }
    }

    /// An option of whole milliseconds within `range`, the configuration's `duration`.
    private static func milliseconds(
        _ name: String, _ help: String, in range: ClosedRange<Int>, _ duration: WritableKeyPath<ServerConfiguration, Duration> & Sendable
    ) -> ServeOption {
        value(name, "<ms>", help, get: { "\($0[keyPath: duration].nanoseconds / 1_000_000)" }) {
            $0[keyPath: duration] = .milliseconds(try number($1, in: range) as Int)
        }
    }

    private static func flag(_ name: String, _ help: String, set: @escaping @Sendable (inout ServerConfiguration) -> Void) -> ServeOption {
        ServeOption(
            name: name, environment: [variable(name)], placeholder: nil, help: help,
            apply: { configuration, text in
                switch text.lowercased() {
                case "1", "true", "yes", "on": set(&configuration)
                case "0", "false", "no", "off": break
                default: throw Problem("expected true or false, got '\(text)'")
                }
            }, current: { _ in "" })
    }

    /// `BINDERY_MAX_SESSIONS` for `max-sessions`.
    private static func variable(_ name: String) -> String {
        "BINDERY_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    private static func number<N: FixedWidthInteger>(_ text: String, in range: ClosedRange<Int>) throws -> N {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else { throw Problem("expected a whole number, got '\(text)'") }
        guard range.contains(value) else { throw Problem("\(value) is out of range \(range.lowerBound)…\(range.upperBound)") }
        return N(value)
    }
}
