import Foundation

/// Runs work on the calling thread through a per-thread trampoline: work
/// scheduled while other work runs waits until it finishes.
///
/// Every subscription made while no trampoline runs on its thread runs on one (as RxSwift's
/// `Producer` does), so the steps a source schedules here start only once its subscription
/// is in place, and disposing it (a `take(1)` downstream) stops them.
public final class CurrentThreadScheduler: ImmediateSchedulerType, @unchecked Sendable {
    /// The shared instance.
    public static let instance = CurrentThreadScheduler()

    private final class Queue { var items: [() -> Void] = [] }

    /// Marks a running trampoline with nothing queued yet: most never queue anything, and
    /// subscribing (which runs on one) then allocates nothing.
    private static let runningEmpty = UnsafeMutableRawPointer(bitPattern: 1)!

    /// Whether the calling thread must schedule (nothing is running on its trampoline).
    public static var isScheduleRequired: Bool { pthread_getspecific(queueKey) == nil }

    /// Runs `action` now, or after the work already running on this thread.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        guard let running = pthread_getspecific(queueKey) else {
            return Self.trampoline { action(state) }
        }
        let queue: Queue
        if running == Self.runningEmpty {
            queue = Queue()
            pthread_setspecific(queueKey, Unmanaged.passRetained(queue).toOpaque())
        } else {
            queue = Unmanaged<Queue>.fromOpaque(running).takeUnretainedValue()
        }
        let cancel = SingleAssignmentDisposable()
        queue.items.append {
            guard !cancel.isDisposed else { return }
            cancel.setDisposable(action(state))
        }
        return cancel
    }

    /// Runs `body` as this thread's trampoline, then what it queued; the caller checked that none runs.
    static func trampoline<Result>(_ body: () -> Result) -> Result {
        pthread_setspecific(queueKey, runningEmpty)
        defer { pthread_setspecific(queueKey, nil) }
        let result = body()
        guard let running = pthread_getspecific(queueKey), running != runningEmpty else { return result }
        let queue = Unmanaged<Queue>.fromOpaque(running)
        defer { queue.release() }
        let items = queue.takeUnretainedValue()
        var index = 0
        while index < items.items.count {
            let next = items.items[index]
            index += 1
            next()
        }
        return result
    }
}

/// The trampoline running on a thread: `runningEmpty`, or its queue (retained); nil when none runs.
private let queueKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
