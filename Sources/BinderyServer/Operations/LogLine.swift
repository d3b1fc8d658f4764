import Bindery
import Foundation
import Logging

/// How log lines look: `text` for a terminal, `json` (one object per line) for
/// a log pipeline.
public enum LogFormat: String, Sendable, CaseIterable {
    case text, json
}

/// Bindery's log handler: one line per message on standard error (or any
/// sink), with its metadata as `key=value` pairs or as JSON fields.
///
/// ```
/// 2026-11-23T05:30:00.123Z info request method=POST path=/api/simple/{sid}/inputs/buttonTap status=200 ms=0.41 session=Ab…
/// {"time":"2026-11-23T05:30:00.123Z","level":"info","message":"request","method":"POST",…}
/// ```
public struct LogLine: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let format: LogFormat
    private let write: @Sendable (String) -> Void

    /// Lines in `format` from `level` up, written by `write` (standard error by default).
    public init(format: LogFormat = .text, level: Logger.Level = .info,
                write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.format = format
        self.logLevel = level
        self.write = write
    }

    /// A logger labelled `bindery` that writes through a `LogLine`.
    public static func logger(format: LogFormat = .text, level: Logger.Level = .info,
                              write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) -> Logger {
        Logger(label: "bindery") { _ in LogLine(format: format, level: level, write: write) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { $1 } }
        let time = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
        // The fields a reader looks for first, then the rest in a stable order.
        let leading = ["method", "path", "status", "ms", "view_model", "session", "reason"].filter { fields[$0] != nil }
        let keys = leading + fields.keys.filter { !leading.contains($0) }.sorted()
        switch format {
        case .text:
            var line = "\(time) \(event.level) \(event.message)"
            for key in keys {
                let value = Self.text(fields[key]!)
                // A value with spaces or quotes is quoted, so the line still splits into fields.
                let plain = !value.isEmpty && !value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" || $0.isNewline })
                line += " \(key)=" + (plain ? value : Self.quoted(value))
            }
            write(line + "\n")
        case .json:
            var line = "{\"time\":\"\(time)\",\"level\":\"\(event.level)\",\"message\":" + Self.quoted("\(event.message)")
            for key in keys where !["time", "level", "message"].contains(key) {
                line += "," + Self.quoted(key) + ":" + Self.quoted(Self.text(fields[key]!))
            }
            write(line + "}\n")
        }
    }

    private static func text(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let string): return string
        case .stringConvertible(let convertible): return convertible.description
        case .array(let values): return "[" + values.map(text).joined(separator: ",") + "]"
        case .dictionary(let values): return "{" + values.sorted { $0.key < $1.key }.map { "\($0.key)=\(text($0.value))" }.joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string.
    private static func quoted(_ text: String) -> String { String(decoding: JSONText.quoted(text), as: UTF8.self) }
}
