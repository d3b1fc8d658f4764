import Foundation

/// Runs work on the calling thread through a per-thread trampoline: work
/// scheduled while other work runs waits until it finishes.
public final class CurrentThreadScheduler: ImmediateSchedulerType, @unchecked Sendable {
    /// The shared instance.
    public static let instance = CurrentThreadScheduler()

    private static let queueKey = "BinderyRx.CurrentThreadScheduler.queue"

    private final class Queue { var items: [() -> Void] = [] }

    /// Whether the calling thread must schedule (nothing is running on its trampoline).
    public static var isScheduleRequired: Bool { Thread.current.threadDictionary[queueKey] == nil }

    /// Runs `action` now, or after the work already running on this thread.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let dictionary = Thread.current.threadDictionary
        if let queue = dictionary[Self.queueKey] as? Queue {
            let cancel = SingleAssignmentDisposable()
            queue.items.append {
                guard !cancel.isDisposed else { return }
                cancel.setDisposable(action(state))
            }
            return cancel
        }
        let queue = Queue()
        dictionary[Self.queueKey] = queue
        defer { dictionary[Self.queueKey] = nil }
        let disposable = action(state)
        var index = 0
        while index < queue.items.count {
            let next = queue.items[index]
            index += 1
            next()
        }
        return disposable
    }
}
