import Bindery
import Foundation

/// The server-sent events wire format (WHATWG HTML §9.2), written here and
/// nowhere else: each output event once, when the session logs it, and the
/// stream's own lines (`retry:`, `bindery.reset`, `bindery.end`, keep-alive).
/// The runtime writes a subscription's items in it (`format`, given when the
/// application is made).
enum ServerSentEvents {
    /// `id: <id>\nevent: <name>\ndata: <json>\n\n`: one output value, shared by every stream.
    /// The JSON is compact, so it is one line.
    @Sendable static func event(id: UInt64, name: String, json: Data) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(json.count + name.utf8.count + 40)
        bytes.append(utf8: "id: ")
        bytes.append(decimal: id)
        bytes.append(utf8: "\nevent: ")
        bytes.append(utf8: name)
        bytes.append(utf8: "\ndata: ")
        // Through its buffer: appending `Data` as a sequence goes byte by byte.
        json.withUnsafeBytes { bytes.append(contentsOf: $0) }
        bytes.append(utf8: "\n\n")
        return bytes
    }

    /// `retry: <ms>`: how long a client waits before reconnecting.
    static func retry(milliseconds: Int) -> [UInt8] { Array("retry: \(milliseconds)\n\n".utf8) }

    /// The client's `Last-Event-ID` is gone: the snapshot that follows starts over.
    static func reset(lastEventID: UInt64) -> [UInt8] {
        Array("event: bindery.reset\ndata: {\"lastEventId\":\(lastEventID)}\n\n".utf8)
    }

    /// The session was disposed: the stream ends and a reconnect gets 404.
    static let end = Array("event: bindery.end\ndata: null\n\n".utf8)

    /// The line that starts every item of session `path` (`<vm>/<sid>`) on a
    /// multiplexed stream: a field EventSource ignores, so the stream stays plain SSE.
    static func session(_ path: String) -> [UInt8] { Array("session: \(path)\n".utf8) }

    /// Session `path` of a multiplexed stream does not exist (`bindery.gone`:
    /// create another) or could not be subscribed (`bindery.error`); `json` is
    /// the error's JSON body.
    static func refused(_ path: String, gone: Bool, json: Data) -> [UInt8] {
        session(path) + Array("event: \(gone ? "bindery.gone" : "bindery.error")\ndata: ".utf8) + Array(json) + Array("\n\n".utf8)
    }

    /// Whether what the server shows may be behind (a cluster's node that
    /// cannot reach its shared database), or current again: for every stream,
    /// with no session and no id.
    static func stale(_ isStale: Bool) -> [UInt8] { isStale ? staleEvent : currentEvent }
    private static let staleEvent = Array("event: bindery.stale\ndata: true\n\n".utf8)
    private static let currentEvent = Array("event: bindery.stale\ndata: false\n\n".utf8)

    /// A development server's word about the app itself (`DevNotice`, one line of JSON):
    /// for every stream, with no session and no id.
    static func development(_ json: Data) -> [UInt8] {
        Array("event: bindery.dev\ndata: ".utf8) + Array(json) + Array("\n\n".utf8)
    }

    /// A comment that keeps proxies from closing an idle stream and finds dead clients.
    static let keepAlive = Array(": keep-alive\n\n".utf8)

    /// The format the runtime writes subscriptions in.
    static let format = EventWireFormat(event: event, reset: reset, end: end)
}
