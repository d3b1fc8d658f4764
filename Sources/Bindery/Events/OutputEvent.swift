import Foundation

/// One output value, numbered in its session: what the event log keeps and
/// subscriptions deliver. Immutable, and shared by every subscriber.
package final class OutputEvent: Sendable {
    /// The session's sequence number of the event (increasing from 1).
    package let id: UInt64
    /// The output's name.
    package let name: String
    /// Whether the output is a driver (state) or a signal (an event).
    package let kind: OutputKind
    /// The value as compact JSON.
    package let json: Data
    /// The event as the edge writes it, made once by the application's `EventWireFormat`.
    package let encoded: [UInt8]

    init(id: UInt64, name: String, kind: OutputKind, json: Data, format: EventWireFormat) {
        self.id = id
        self.name = name
        self.kind = kind
        self.json = json
        encoded = format.event(id, name, json)
    }
}

extension OutputEvent: Equatable {
    /// Events are equal when they are the same event.
    package static func == (lhs: OutputEvent, rhs: OutputEvent) -> Bool { lhs === rhs }
}
