import Foundation

/// The session's operations awaited rather than called back: for tests and
/// tools. Awaiting holds no thread.
extension Session {
    /// The current state.
    package func snapshot() async throws -> Snapshot {
        try await awaitResult { snapshot($0) }
    }

    /// Sends one input; the snapshot once its synchronous effects are applied.
    package func send(input name: String, payload: Data) async throws -> Snapshot {
        try await awaitResult { send(input: name, payload: payload, completion: $0) }
    }

    /// The current value of driver `name` as JSON, or nil before it has one.
    package func value(ofOutput name: String) async throws -> Data? {
        try await awaitResult { value(ofOutput: name, completion: $0) }
    }

    /// A feed of what came after `lastEventID` (everything current when nil), then live events.
    package func subscribe(lastEventID: UInt64?) async throws -> Subscription {
        try await awaitResult { subscribe(lastEventID: lastEventID, completion: $0) }
    }
}
