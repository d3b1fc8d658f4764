import Foundation

/// Awaits an operation that calls back once, from any thread.
///
/// The result crosses from the calling-back thread to the awaiting task
/// through a pthread mutex as well as through the continuation: the Swift
/// runtime's own hand-off is made of atomics ThreadSanitizer does not see, so
/// without the mutex it reports, now and then, a race between what the
/// callback's thread built (a subscription, a session) and the task that
/// reads it.
package func awaitCallback<Value: Sendable>(
    _ start: (@escaping @Sendable (Value) -> Void) -> Void
) async -> Value {
    let box = Locked<Value?>(nil)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        start { value in
            box.withLock { $0 = value }
            continuation.resume()
        }
    }
    return box.withLock { $0! }
}

/// `awaitCallback` for operations that answer a `Result`.
package func awaitResult<Value: Sendable, Failure: Error>(
    _ start: (@escaping @Sendable (Result<Value, Failure>) -> Void) -> Void
) async throws -> Value {
    try await awaitCallback(start).get()
}
