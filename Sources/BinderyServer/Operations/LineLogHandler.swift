import Bindery
import Foundation
import Logging

/// Bindery's log handler: one line per message on standard error (or any
/// sink), with its metadata as `key=value` pairs or as JSON fields.
///
/// ```
/// 2026-11-23T05:30:00.123Z info request method=POST path=/api/simple/{sid}/inputs/buttonTap status=200 ms=0.41 session=Ab…
/// {"time":"2026-11-23T05:30:00.123Z","level":"info","message":"request","method":"POST",…}
/// ```
public struct LineLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let format: LogFormat
    private let write: @Sendable (String) -> Void

    /// Lines in `format` from `level` up, written by `write` (standard error by default).
    public init(format: LogFormat = .text, level: Logger.Level = .info, write: @escaping @Sendable (String) -> Void = LineLogHandler.standardError) {
        self.format = format
        self.logLevel = level
        self.write = write
    }

    /// A logger labelled `bindery` that writes through a `LineLogHandler`.
    public static func logger(
        format: LogFormat = .text, level: Logger.Level = .info,
        write: @escaping @Sendable (String) -> Void = LineLogHandler.standardError
    ) -> Logger {
        Logger(label: "bindery") { _ in LineLogHandler(format: format, level: level, write: write) }
    }

    /// Writes a line to standard error in one `write(2)`, so lines of several threads never interleave.
    public static let standardError: @Sendable (String) -> Void = { line in
        var line = line
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Platform.write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { if errno == EINTR { continue } else { return } }
                offset += written
            }
        }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        // Written byte by byte: a request's line must cost little next to the request.
        var fields = event.metadata ?? [:]
        if !metadata.isEmpty { fields.merge(metadata) { event, _ in event } }
        // The fields a reader looks for first, then the rest in a stable order.
        let leading = Self.leading.filter { fields[$0] != nil }
        let keys = leading + fields.keys.filter { !Self.leading.contains($0) }.sorted()
        var line: [UInt8] = []
        line.reserveCapacity(256)
        switch format {
        case .text:
            Self.appendTime(to: &line)
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: event.level.rawValue.utf8)
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: "\(event.message)".utf8)
            for key in keys {
                let value = Self.text(fields[key]!)
                line.append(UInt8(ascii: " "))
                line.append(contentsOf: key.utf8)
                line.append(UInt8(ascii: "="))
                // A value with spaces or quotes is quoted, so the line still splits into fields.
                if !value.isEmpty && !value.utf8.contains(where: { $0 == 0x20 || $0 == 0x22 || $0 == 0x3D || $0 < 0x20 }) {
                    line.append(contentsOf: value.utf8)
                } else {
                    JSONText.appendQuoted(value, to: &line)
                }
            }
        case .json:
            line.append(contentsOf: #"{"time":""#.utf8)
            Self.appendTime(to: &line)
            line.append(contentsOf: #"","level":""#.utf8)
            line.append(contentsOf: event.level.rawValue.utf8)
            line.append(contentsOf: #"","message":"#.utf8)
            JSONText.appendQuoted("\(event.message)", to: &line)
            for key in keys where key != "time" && key != "level" && key != "message" {
                line.append(UInt8(ascii: ","))
                JSONText.appendQuoted(key, to: &line)
                line.append(UInt8(ascii: ":"))
                JSONText.appendQuoted(Self.text(fields[key]!), to: &line)
            }
            line.append(UInt8(ascii: "}"))
        }
        line.append(UInt8(ascii: "\n"))
        write(String(decoding: line, as: UTF8.self))
    }

    private static let leading = ["method", "path", "status", "ms", "view_model", "session", "reason"]

    /// `2026-11-23T05:30:00.123Z`, from the system clock, in UTC.
    private static func appendTime(to line: inout [UInt8]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                line.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(Int(parts.tm_year) + 1900, 4)
        line.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mon) + 1, 2)
        line.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mday), 2)
        line.append(UInt8(ascii: "T"))
        digits(Int(parts.tm_hour), 2)
        line.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_min), 2)
        line.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_sec), 2)
        line.append(UInt8(ascii: "."))
        digits(Int(now.tv_nsec) / 1_000_000, 3)
        line.append(UInt8(ascii: "Z"))
    }

    private static func text(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let string): return string
        case .stringConvertible(let convertible): return convertible.description
        case .array(let values): return "[" + values.map(text).joined(separator: ",") + "]"
        case .dictionary(let values): return "{" + values.sorted { $0.key < $1.key }.map { "\($0.key)=\(text($0.value))" }.joined(separator: ",") + "}"
        }
    }

}
