import Foundation

/// How a subscription's items are written as bytes: given once, by whoever
/// serves the application (the server: server-sent events), when it makes the
/// `Application`. The runtime knows no wire format of its own.
package struct EventWireFormat: Sendable {
    /// One output value (id, output name, compact JSON), encoded once when its
    /// session publishes it and shared by every subscription.
    package let event: @Sendable (_ id: UInt64, _ name: String, _ json: Data) -> [UInt8]
    /// The client's `Last-Event-ID` is no longer in the log: the snapshot that follows starts over.
    package let reset: @Sendable (_ lastEventID: UInt64) -> [UInt8]
    /// The session was disposed: nothing follows.
    package let end: [UInt8]

    package init(event: @escaping @Sendable (UInt64, String, Data) -> [UInt8], reset: @escaping @Sendable (UInt64) -> [UInt8], end: [UInt8]) {
        self.event = event
        self.reset = reset
        self.end = end
    }

    /// Each item as one line of JSON: an event's value, `{"reset":<lastEventId>}`,
    /// `{"end":true}`. What an application not served over HTTP writes.
    package static let jsonLines = EventWireFormat(
        event: { _, _, json in Array(json) + [0x0A] },
        reset: { Array("{\"reset\":\($0)}\n".utf8) },
        end: Array("{\"end\":true}\n".utf8))

    /// The bytes of one item of a subscription.
    func encode(_ item: Subscription.Item) -> [UInt8] {
        switch item {
        case .event(let event): return event.encoded
        case .reset(let lastEventID): return reset(lastEventID)
        case .end: return end
        }
    }
}
