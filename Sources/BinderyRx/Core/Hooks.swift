import Foundation
import Synchronization

/// Global hooks, as RxSwift's: what becomes of an error that reaches a
/// `subscribe` given no error handler.
///
/// Thread safety: each hook may be read and set from any thread.
public enum Hooks {
    /// Called with an error that reached a `subscribe` without `onError` (or `onFailure`),
    /// and the call stack recorded when that subscription was made.
    public typealias DefaultErrorHandler = (_ subscriptionCallStack: [String], _ error: Error) -> Void
    /// Returns the call stack to record for a subscription.
    public typealias CustomCaptureSubscriptionCallstack = () -> [String]

    private static let lock = NSLock()
    private static let recordsCallStack = Atomic<Bool>(false)
    // Does nothing, unlike RxSwift's debug builds, which print: a server's output is its log.
    nonisolated(unsafe) private static var errorHandler: DefaultErrorHandler = { _, _ in }
    nonisolated(unsafe) private static var captureCallStack: CustomCaptureSubscriptionCallstack = { Thread.callStackSymbols }

    /// Whether `subscribe` records the call stack (`customCaptureSubscriptionCallstack`) for
    /// `defaultErrorHandler`; false by default, as recording costs every subscription.
    public static var recordCallStackOnError: Bool {
        get { recordsCallStack.load(ordering: .relaxed) }
        set { recordsCallStack.store(newValue, ordering: .relaxed) }
    }

    /// The handler for errors no subscriber handles; by default it does nothing.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { lock.withLock { errorHandler } }
        set { lock.withLock { errorHandler = newValue } }
    }

    /// What records a subscription's call stack; by default `Thread.callStackSymbols`.
    public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
        get { lock.withLock { captureCallStack } }
        set { lock.withLock { captureCallStack = newValue } }
    }

    /// The call stack to keep for a subscription being made: empty unless recording is on.
    static func subscriptionCallStack() -> [String] {
        recordCallStackOnError ? customCaptureSubscriptionCallstack() : []
    }
}
