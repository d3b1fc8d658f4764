import Foundation

/// One output value, numbered in its session: what the event log keeps and
/// subscriptions deliver. Immutable once made, and shared by every subscriber.
///
/// A change event (a `KeyedList`'s changes since the output's event before
/// it) is only news to a reader that has read that event, `previousID`; any
/// other reader gets the output's whole value instead (`whole`), with the
/// same id.
///
/// Threading: `whole` and `forgetWhole` run under the log's lock.
package final class OutputEvent: @unchecked Sendable {
    /// The session's sequence number of the event (increasing from 1).
    package let id: UInt64
    /// The output's name.
    package let name: String
    /// Whether the output is a driver (state) or a signal (an event).
    package let kind: OutputKind
    /// The value as compact JSON (for a change event, the changes).
    package let json: Data
    /// The event as the edge writes it, made once by the application's `EventWireFormat`.
    package let encoded: [UInt8]
    /// The id of the event before it of the same output, for a change event; 0 otherwise.
    let previousID: UInt64
    /// Whether the event carries the changes of its output's value rather than the value.
    var isChange: Bool { previousID != 0 }
    /// Makes the whole value's JSON, while this is its output's latest event.
    private var wholeJSON: (() throws -> Data)?
    /// The whole value's event, once made.
    private var wholeEvent: OutputEvent?

    init(id: UInt64, name: String, kind: OutputKind, json: Data, format: EventWireFormat) {
        self.id = id
        self.name = name
        self.kind = kind
        self.json = json
        encoded = format.event(id, name, json)
        previousID = 0
    }

    /// A change event after event `previousID`, whose whole value `whole` makes.
    init(id: UInt64, name: String, changes: Data, previousID: UInt64, whole: @escaping () throws -> Data, format: EventWireFormat) {
        self.id = id
        self.name = name
        kind = .driver
        json = changes
        encoded = format.event(id, name, changes)
        self.previousID = previousID
        wholeJSON = whole
    }

    /// This event as its output's whole value, with its id: itself unless it
    /// is a change event. Only for its output's latest event.
    func whole(_ format: EventWireFormat) -> OutputEvent {
        guard isChange else { return self }
        if let wholeEvent { return wholeEvent }
        let json: Data
        do {
            guard let wholeJSON else { preconditionFailure("only an output's latest event is sent whole") }
            json = try wholeJSON()
        } catch {
            json = Data("null".utf8)
        }
        let event = OutputEvent(id: id, name: name, kind: kind, json: json, format: format)
        wholeEvent = event
        wholeJSON = nil
        return event
    }

    /// The output has a newer event: this one is never sent whole, and lets its value go.
    func forgetWhole() {
        wholeJSON = nil
        wholeEvent = nil
    }

    /// What a reader that has read up to `position` gets of this event: the
    /// event, or its whole value if it is a change to an event it has not read.
    func asRead(after position: UInt64, _ format: EventWireFormat) -> OutputEvent {
        isChange && previousID > position ? whole(format) : self
    }
}

extension OutputEvent: Equatable {
    /// Events are equal when they are the same event.
    package static func == (lhs: OutputEvent, rhs: OutputEvent) -> Bool { lhs === rhs }
}
