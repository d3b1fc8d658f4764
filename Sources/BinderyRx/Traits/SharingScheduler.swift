/// Chooses the scheduler `Driver` and `Signal` observe on, as in RxCocoa.
///
/// By default it is the `SerialScheduler` whose queue the caller runs on (a
/// Bindery session's, while the session builds and runs its ViewModel), and
/// a new `MainScheduler` everywhere else, one per sequence as in RxCocoa.
public enum SharingScheduler {
    nonisolated(unsafe) private static var override: (() -> SchedulerType)?

    /// Makes the scheduler for a new shared sequence.
    public static var make: () -> SchedulerType {
        if let override { return override }
        return defaultScheduler
    }

    private static func defaultScheduler() -> SchedulerType {
        if let session = SerialScheduler.current { return session }
        // A scheduler per sequence, as RxCocoa's `{ MainScheduler() }`: whether one runs its
        // work inline must not depend on what other sequences have queued on the main queue.
        return MainScheduler()
    }

    /// Runs `action` with every new shared sequence observed on `scheduler` (for tests).
    public static func mock(scheduler: SchedulerType, action: () throws -> Void) rethrows {
        try mock(makeScheduler: { scheduler }, action: action)
    }

    /// Runs `action` with every new shared sequence observed on the scheduler `makeScheduler` returns.
    public static func mock(makeScheduler: @escaping () -> SchedulerType, action: () throws -> Void) rethrows {
        let original = override
        override = makeScheduler
        defer { override = original }
        try action()
    }
}
