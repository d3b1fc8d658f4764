import Dispatch
import Foundation

/// The main thread's scheduler, as a ViewModel knows it from iOS.
///
/// On iOS a ViewModel lives on the main thread; on a server its session's
/// turns are that thread. So `MainScheduler.instance`, asked for in a
/// session's turn (a ViewModel's `init`, an operator made as an input
/// arrives), is that session's scheduler: what it runs, it runs in the
/// session's turns, in order; inline when asked in a turn with nothing queued
/// before, as RxSwift's `MainScheduler` runs inline on the main thread. Asked
/// for anywhere else (a service, a timer, a test), it is the main queue, which
/// `BinderyApp.run()` keeps running.
///
/// The scheduler is chosen when `instance` is read, where the operator that
/// holds it is made: `observe(on: MainScheduler.instance)` after a background
/// service, written in a ViewModel, comes back to its session however late the
/// service answers and from whatever thread.
public final class MainScheduler: SerialDispatchQueueScheduler, @unchecked Sendable {
    /// The main thread's scheduler: in a session's turn that session's, else the main queue's.
    public static var instance: MainScheduler {
        SerialScheduler.current.map { MainScheduler(session: $0) } ?? mainQueue
    }

    /// The same, never running inline: work always goes to a later turn (or a later pass of the main queue).
    public static var asyncInstance: SerialDispatchQueueScheduler {
        SerialScheduler.current.map { AsyncSessionScheduler(session: $0) } ?? mainQueueAsync
    }

    private static let mainQueue = MainScheduler()
    private static let mainQueueAsync = SerialDispatchQueueScheduler(serialQueue: .main)

    /// The session whose turns it runs in; nil: the main queue.
    private let session: SerialScheduler?
    private let enqueued = NSLock()
    private var numberEnqueued = 0

    /// A scheduler on the main queue.
    public init() {
        session = nil
        super.init(serialQueue: .main)
    }

    private init(session: SerialScheduler) {
        self.session = session
        super.init(serialQueue: .main)
    }

    /// Whether the caller runs where this scheduler runs its work: the session's turn, or the main thread.
    var isCurrent: Bool { session?.isCurrent ?? Thread.isMainThread }

    /// Fails unless the caller runs on the main thread, or in a session's
    /// turn (a ViewModel's main thread).
    public static func ensureExecutingOnScheduler(errorMessage: String? = nil) {
        precondition(
            Thread.isMainThread || SerialScheduler.current != nil, errorMessage ?? "Executing on a background thread; main thread expected.")
    }

    /// Fails unless the caller runs on the main thread, or in a session's turn.
    public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
        ensureExecutingOnScheduler(errorMessage: errorMessage)
    }

    /// Runs `action` in the session's turns (inline from one with nothing
    /// queued before); on the main queue, inline on the main thread when
    /// nothing else is scheduled.
    public override func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        if let session { return session.schedule(state, action: action) }
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

    /// Runs `action` after `dueTime`, in a session's turn or on the main queue.
    public override func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        if let session { return session.scheduleRelative(state, dueTime: dueTime, action: action) }
        return super.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Runs `action` every `period`, in a session's turns or on the main queue.
    public override func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType
    ) -> Disposable {
        if let session { return session.schedulePeriodic(state, startAfter: startAfter, period: period, action: action) }
        return super.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}

/// `MainScheduler.asyncInstance` in a session's turn: always a later turn of that session.
private final class AsyncSessionScheduler: SerialDispatchQueueScheduler, @unchecked Sendable {
    private let session: SerialScheduler

    init(session: SerialScheduler) {
        self.session = session
        super.init(serialQueue: .main)
    }

    override func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        session.async {
            guard !cancel.isDisposed else { return }
            cancel.setDisposable(action(state))
        }
        return cancel
    }

    override func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        session.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    override func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType
    ) -> Disposable {
        session.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
