import Dispatch
import Foundation

/// Runs work on the main queue; called from the main thread while nothing else
/// is scheduled, it runs inline, as RxSwift's `MainScheduler` does.
public final class MainScheduler: SerialDispatchQueueScheduler, @unchecked Sendable {
    /// The shared instance.
    public static let instance = MainScheduler()

    /// An instance that always dispatches asynchronously.
    public static let asyncInstance = SerialDispatchQueueScheduler(serialQueue: .main)

    private let enqueued = NSLock()
    private var numberEnqueued = 0

    /// A scheduler on the main queue.
    public init() { super.init(serialQueue: .main) }

    /// Fails if the caller is not on the main thread.
    public static func ensureExecutingOnScheduler(errorMessage: String? = nil) {
        precondition(Thread.isMainThread, errorMessage ?? "Executing on a background thread; main thread expected.")
    }

    /// Fails if the caller is not on the main thread.
    public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
        ensureExecutingOnScheduler(errorMessage: errorMessage)
    }

    /// Runs `action` inline on the main thread when nothing else is scheduled, else on the main queue.
    public override func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let previous = enqueued.withLock { () -> Int in
            defer { numberEnqueued += 1 }
            return numberEnqueued
        }
        if Thread.isMainThread && previous == 0 {
            defer { enqueued.withLock { numberEnqueued -= 1 } }
            return action(state)
        }
        let cancel = SingleAssignmentDisposable()
        DispatchQueue.main.async {
            defer { self.enqueued.withLock { self.numberEnqueued -= 1 } }
            guard !cancel.isDisposed else { return }
            cancel.setDisposable(action(state))
        }
        return cancel
    }
}
