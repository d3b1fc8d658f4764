import Foundation

/// One output value as it goes on the wire: encoded to its SSE bytes once and
/// shared, read-only, by every stream of the session.
public final class EncodedEvent: Sendable {
    /// The session's sequence number of the event (the SSE `id:`).
    public let id: UInt64
    /// The output's name (the SSE `event:`).
    public let name: String
    /// Whether the output is a driver or a signal.
    public let kind: OutputKind
    /// The value as JSON on one line (the SSE `data:`).
    public let json: Data
    /// `id: …\nevent: …\ndata: …\n\n`.
    public let bytes: [UInt8]

    init(id: UInt64, name: String, kind: OutputKind, json: Data) {
        self.id = id
        self.name = name
        self.kind = kind
        self.json = json
        var bytes: [UInt8] = []
        bytes.reserveCapacity(json.count + name.utf8.count + 32)
        bytes.append(contentsOf: "id: \(id)\nevent: \(name)\ndata: ".utf8)
        bytes.append(contentsOf: json)
        bytes.append(contentsOf: "\n\n".utf8)
        self.bytes = bytes
    }
}
