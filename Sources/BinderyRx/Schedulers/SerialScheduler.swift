import Dispatch
import Foundation
import Synchronization

/// A serial scheduler on a shared `ExecutorPool`: what Bindery gives each
/// session, as `MainScheduler` is what an iOS app has.
///
/// Work runs one turn at a time on some worker of the pool, never two at
/// once, in the order it was queued. Inside a turn, work scheduled on the same
/// scheduler is trampolined: queued and run before the turn's current job
/// returns, so everything an event causes synchronously has happened, in order
/// and without reentrancy, when that job ends. A scheduler owns no thread: a
/// million idle schedulers cost memory only.
///
/// Thread safety: call from any thread. `sync` blocks its caller and is for
/// tests and tools; servers use `async`.
public final class SerialScheduler: SchedulerType, @unchecked Sendable {
    /// A name for debugging.
    public let label: String
    private let pool: ExecutorPool
    private let lock = NSLock()
    /// Work for a turn, and what to run once it and everything it scheduled inline are done.
    private struct Job {
        let work: () -> Void
        var then: (() -> Void)? = nil
    }

    // Guarded by `lock`.
    private var jobs: [Job] = []
    /// In the pool's queue or running a turn: new work needs no submission.
    private var isSubmitted = false
    // Touched only during a turn, by the one worker running it.
    private var turn: [Job] = []
    private var pending: [() -> Void] = []
    private var isDraining = false
    /// Deliveries (`schedule`, `observe(on:)`) queued for a later turn and not
    /// yet run: while there are any, a delivery from inside a turn queues
    /// behind them rather than running inline, so that events reach their
    /// observers in the order they were emitted, from whatever thread (as
    /// RxSwift's `MainScheduler` counts `numberEnqueued`).
    private let queuedDeliveries = Atomic<Int>(0)

    /// A scheduler running on `pool`.
    public init(label: String, pool: ExecutorPool = .shared) {
        self.label = label
        self.pool = pool
    }

    /// The scheduler whose turn the calling thread is running, if any.
    public static var current: SerialScheduler? {
        pthread_getspecific(currentKey).map { Unmanaged<SerialScheduler>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Whether the caller runs in one of this scheduler's turns.
    public var isCurrent: Bool { pthread_getspecific(currentKey) == Unmanaged.passUnretained(self).toOpaque() }

    /// The wall clock.
    public var now: RxTime { Date() }

    /// Runs `work` in a later turn.
    public func async(_ work: @escaping () -> Void) {
        enqueue(Job(work: work))
    }

    /// Runs `work` in a later turn, then `then` in the same turn once `work`
    /// and everything it scheduled inline have run, before any other work.
    public func async(_ work: @escaping () -> Void, then: @escaping () -> Void) {
        enqueue(Job(work: work, then: then))
    }

    private func enqueue(_ job: Job) {
        let submit = lock.withLock { () -> Bool in
            jobs.append(job)
            defer { isSubmitted = true }
            return !isSubmitted
        }
        if submit { pool.submit(self) }
    }

    /// Runs `work` in a turn and waits for it and everything it scheduled inline.
    ///
    /// Blocks the calling thread (unless it is already in this scheduler's
    /// turn): for tests and tools, never for a server's request path.
    public func sync<T>(_ work: () throws -> T) rethrows -> T {
        if isCurrent { return try trampoline(work) }
        return try waitForTurn(work, rescue: { throw $0 })
    }

    /// The body of `sync` off the scheduler; `rescue` rethrows what `work` threw.
    private func waitForTurn<T>(_ work: () throws -> T, rescue: (Error) throws -> T) rethrows -> T {
        var result: Result<T, Error>?
        let done = DispatchSemaphore(value: 0)
        withoutActuallyEscaping(work) { work in
            // The job outlives the call in the turn's list, so it lets go of `work` before the call returns.
            let box = JobBox(work)
            enqueue(Job(work: {
                result = Result { try box.work!() }
                box.work = nil
            }, then: { done.signal() }))
            done.wait()
        }
        switch result! {
        case .success(let value): return value
        case .failure(let error): return try rescue(error)
        }
    }

    /// Runs what is queued now; called by a pool worker, which the turn holds.
    func runTurn() {
        let outer = pthread_getspecific(currentKey)
        pthread_setspecific(currentKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(currentKey, outer) }
        lock.withLock { swap(&jobs, &turn) }
        for job in turn {
            trampoline(job.work)
            job.then?()
        }
        turn.removeAll(keepingCapacity: true)
        let more = lock.withLock { () -> Bool in
            if jobs.isEmpty { isSubmitted = false }
            return isSubmitted
        }
        if more { pool.submit(self) }
    }

    private func trampoline<T>(_ work: () throws -> T) rethrows -> T {
        if isDraining { return try work() }
        isDraining = true
        defer { isDraining = false }
        let result = try work()
        // Walk by index: work may append while it runs, and removing from the
        // front of an array is linear, which made a burst quadratic.
        var index = 0
        while index < pending.count {
            let next = pending[index]
            index += 1
            next()
        }
        pending.removeAll(keepingCapacity: true)
        return result
    }

    /// Runs `action` inline when in a turn (after the work in progress), else in a later turn.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        deliver {
            guard !cancel.isDisposed else { return }
            cancel.setDisposable(action(state))
        }
        return cancel
    }

    /// Runs `work` as `schedule` runs an action, without the disposable that
    /// could cancel it: what `observe(on:)` delivers each event with (its
    /// subscription drops what arrives after it is disposed).
    func deliver(_ work: @escaping () -> Void) {
        if !isCurrent || queuedDeliveries.load(ordering: .acquiring) > 0 {
            queuedDeliveries.add(1, ordering: .relaxed)
            async { [self] in
                queuedDeliveries.subtract(1, ordering: .releasing)
                work()
            }
        } else if isDraining {
            pending.append(work)
        } else {
            trampoline(work)
        }
    }

    /// Schedules `action` in a turn after `dueTime`.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        let due = DispatchWorkItem { [self] in
            guard !cancel.isDisposed else { return }
            async {
                guard !cancel.isDisposed else { return }
                cancel.setDisposable(action(state))
            }
        }
        timers.asyncAfter(deadline: .now() + dueTime, execute: due)
        return Disposables.create { due.cancel(); cancel.dispose() }
    }

    /// Schedules `action` every `period`, each in a turn, threading its state.
    /// Fires that come while the previous one still waits for its turn are
    /// dropped, as a dispatch timer coalesces them: a slow action never builds a backlog.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        let timer = DispatchSource.makeTimerSource(queue: timers)
        let cancelled = BooleanDisposable()
        let waiting = Atomic<Bool>(false)
        var current = state // touched only in this scheduler's turns
        timer.schedule(deadline: .now() + startAfter, repeating: period)
        timer.setEventHandler { [self] in
            guard !waiting.exchange(true, ordering: .acquiringAndReleasing) else { return }
            async {
                waiting.store(false, ordering: .releasing)
                guard !cancelled.isDisposed else { return }
                current = action(current)
            }
        }
        timer.resume()
        return Disposables.create { cancelled.dispose(); timer.cancel() }
    }
}

/// Holds a `sync` caller's work so the job can let go of it before `sync` returns.
private final class JobBox<T> {
    var work: (() throws -> T)?
    init(_ work: @escaping () throws -> T) { self.work = work }
}

/// The scheduler whose turn a thread runs (unretained; set only during the turn).
private let currentKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

/// One queue for every scheduler's timers: its handlers only queue work, so one thread serves them all.
private let timers = DispatchQueue(label: "bindery.timers")
