import Dispatch
import Foundation
import Synchronization

/// Holds the answer to an input until work the input started is done: a
/// write its ViewModel hands to a database's own thread, say, so that the
/// input's `POST` is answered once that write is durable, while no thread of
/// the sessions' pool waits for it.
///
/// Take one in the input's turn (in the relay's `onNext`, or anything that
/// runs inline from it) and release it when the work is done, from any thread:
///
/// ```swift
/// add.subscribe(onNext: { title in
///     let answer = AnswerHold.take()
///     mailer.send(title) { result in answer?.release(result) }
/// })
/// ```
///
/// The answer (the session's drivers) is then made in a turn after the last
/// release, so it shows what the work emitted before it released its hold.
/// Work that failed releases its hold failing (`release(failing:)`), and the
/// input is answered with that failure instead: a `BinderyError` as it is,
/// anything else as a 500 whose words go to the log, not to the client.
/// A hold let go of without `release` releases itself. The turn that makes
/// a session's ViewModel is an input's too: a hold taken in `init` or `bind`
/// (a first read) holds the session's start (`Session.start`). Outside such
/// a turn (a timer, a service's callback, a ViewModel tested on its own)
/// `take()` is nil: there is no answer to hold.
///
/// Bindery's own durable writes take their hold themselves: a write through
/// `GroupCommit` (SQLite) or `PostgresDatabase.asyncTransaction` in an
/// input's turn holds the input's answer until it has committed, and a write
/// that fails for the database's sake (a full disk, a database away) answers
/// the input with that failure (507 `storage_full`, 503
/// `database_unavailable`). A ViewModel need not take one for them.
///
/// Thread safety: `take` in the input's turn; `release` from any thread, once
/// (again is nothing).
public final class AnswerHold: Sendable {
    private let pending: PendingAnswer
    private let isReleased = Atomic<Bool>(false)

    private init(_ pending: PendingAnswer) {
        self.pending = pending
    }

    /// Holds the answer to the input applied on this thread now; nil outside an input's turn.
    public static func take() -> AnswerHold? {
        guard let turn = InputTurn.current else { return nil }
        return AnswerHold(turn.hold())
    }

    /// The work is done: once every hold on the input is released, it is answered.
    public func release() {
        guard !isReleased.exchange(true, ordering: .acquiringAndReleasing) else { return }
        pending.release()
    }

    /// The work failed: once every hold is released, the input is answered
    /// with `error` rather than its snapshot. A `BinderyError` is answered as
    /// it is; any other error as 500 `view_model_failed`, its text logged, not
    /// sent. If several holds fail, the first `BinderyError` wins (a database
    /// write's own hold says what failed better than a ViewModel that passes on
    /// the same error), else the first failure.
    public func release(failing error: Error) {
        guard !isReleased.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if let error = error as? BinderyError { return pending.release(failing: error) }
        pending.release(failing: BinderyError(.viewModelFailed, "the work the input started failed", cause: "\(error)"), isGeneric: true)
    }

    /// `release()` if `result` is a success, `release(failing:)` with its error if not.
    public func release<Value>(_ result: Result<Value, Error>) {
        switch result {
        case .success: release()
        case .failure(let error): release(failing: error)
        }
    }

    deinit { release() }
}

/// The input a session applies on this thread: set for its turn (the input
/// and everything it runs inline), read by `AnswerHold.take`.
///
/// Threading: `begin`, `hold` and `end` in the session's turn.
package final class InputTurn {
    /// The answer held by this turn's holds, made by the first.
    private var pending: PendingAnswer?
    /// The session and the client's key of the input, if it came with one (`InputReceipt`).
    package var key: (session: String, key: String)?
    /// The durable writes the input has made so far (each records a receipt).
    private var writes = 0
    /// What the input asks of the browser that sent it (`BrowserSignIn`).
    package var browser: BrowserIntents?

    package init() {}

    /// The turn applying an input on this thread, if any.
    static var current: InputTurn? {
        pthread_getspecific(currentKey).map { Unmanaged<InputTurn>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The input's turn starts on this thread.
    package func begin() {
        pthread_setspecific(currentKey, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The input's turn is over: its pending answer, if anything took a hold.
    package func end() -> PendingAnswer? {
        pthread_setspecific(currentKey, nil)
        defer { (pending, key, writes, browser) = (nil, nil, 0, nil) }
        return pending
    }

    fileprivate func receipt() -> InputReceipt? {
        guard let key else { return nil }
        defer { writes += 1 }
        return InputReceipt(session: key.session, key: writes == 0 ? key.key : "\(key.key)#\(writes)")
    }

    fileprivate func hold() -> PendingAnswer {
        let pending = self.pending ?? PendingAnswer()
        self.pending = pending
        pending.hold()
        return pending
    }
}

/// What a durable write made in an input's turn records in its own
/// transaction when the input came with a client's key (`Idempotency-Key`):
/// the session and the key (the input's second write on gets `key#1`, `key#2`,
/// …). A store keeps receipts under a unique key, so the same input's write,
/// applied again after a crash, a failover or an answer that never arrived,
/// fails on its receipt instead of applying twice (`BinderyError.Code.alreadyApplied`).
package struct InputReceipt: Sendable, Equatable {
    package let session: String
    package let key: String

    package init(session: String, key: String) {
        self.session = session
        self.key = key
    }

    /// The receipt for the durable write the input applied on this thread makes now; nil
    /// outside an input's turn, or if the input came without a key.
    package static func take() -> InputReceipt? { InputTurn.current?.receipt() }
}

/// The answer to one input while holds are on it: answered once every hold
/// is released (with the first failure a hold was released with, if any), or
/// told it timed out, whichever comes first; never both.
///
/// Thread safety: any thread.
package final class PendingAnswer: Sendable {
    private struct State {
        /// The holds not yet released, the input's turn counting as one while it runs.
        var holds = 1
        /// The failure the input is answered with: the first a hold was released
        /// with, unless it was made from an error that was not a `BinderyError`
        /// (`failureIsGeneric`) and a `BinderyError` came later.
        var failure: BinderyError?
        var failureIsGeneric = false
        /// What answers once none are left.
        var answer: ((BinderyError?) -> Void)?
        /// What answers if the holds outlast the limit.
        var timedOut: (() -> Void)?
        /// What hears how the work ended, if that was after `timedOut`.
        var endedLate: ((BinderyError?) -> Void)?
        /// When `timedOut` is due, if there is a limit and the answer still waits.
        var deadline: ContinuousClock.Instant?
        /// One of the two ran (or is running).
        var isDone = false
    }

    private let state = Locked(State())

    fileprivate init() {}

    fileprivate func hold() {
        state.withLock { $0.holds += 1 }
    }

    fileprivate func release(failing error: BinderyError? = nil, isGeneric: Bool = false) {
        let (answer, first, wasWatched) = state.withLock { state -> (((BinderyError?) -> Void)?, BinderyError?, Bool) in
            state.holds -= 1
            if let error, state.failure == nil || (state.failureIsGeneric && !isGeneric) { (state.failure, state.failureIsGeneric) = (error, isGeneric) }
            guard state.holds == 0 else { return (nil, nil, false) }
            if state.isDone, let endedLate = state.endedLate {
                state.endedLate = nil
                return (endedLate, state.failure, false)
            }
            guard !state.isDone, let answer = state.answer else { return (nil, nil, false) }
            state.isDone = true
            let wasWatched = state.deadline != nil
            (state.answer, state.timedOut, state.deadline, state.endedLate) = (nil, nil, nil, nil)
            return (answer, state.failure, wasWatched)
        }
        if wasWatched { HeldAnswerDeadlines.shared.remove(self) }
        answer?(first)
    }

    /// The input's turn has ended: `answer` runs once every hold is released
    /// (on the thread that releases the last one), with the first failure one
    /// was released with, or `timedOut` does if they are not all released
    /// within `limit` (on the deadlines' timer thread, within a quarter of a
    /// second after it), and then `endedLate` once they are (with the failure,
    /// if one was released with one).
    package func whenReleased(
        within limit: Duration? = nil, _ answer: @escaping (BinderyError?) -> Void, orElse timedOut: @escaping () -> Void = {},
        endedLate: ((BinderyError?) -> Void)? = nil
    ) {
        let watch = state.withLock { state -> Bool in
            (state.answer, state.timedOut, state.endedLate) = (answer, timedOut, endedLate)
            guard let limit, state.holds > 1 else { return false }
            state.deadline = .now + limit
            return true
        }
        if watch { HeldAnswerDeadlines.shared.add(self) }
        release()
    }

    /// Runs `timedOut` if the deadline has passed and the answer still waits;
    /// whether the answer is done (so no longer needs watching).
    fileprivate func expireIfDue(_ now: ContinuousClock.Instant) -> Bool {
        let (timedOut, done) = state.withLock { state -> ((() -> Void)?, Bool) in
            guard !state.isDone, let deadline = state.deadline, now >= deadline else { return (nil, state.isDone) }
            state.isDone = true
            let timedOut = state.timedOut
            (state.answer, state.timedOut, state.deadline) = (nil, nil, nil)
            return (timedOut, true)
        }
        timedOut?()
        return done
    }
}

/// The held answers that have a deadline, looked at four times a second by
/// one timer: a held input costs an insertion and a removal here, not a
/// timer of its own (a dispatch timer per input cost a fifth of a durable
/// write's CPU).
///
/// Thread safety: any thread.
private final class HeldAnswerDeadlines: Sendable {
    static let shared = HeldAnswerDeadlines()

    private let state = Locked<(watched: [ObjectIdentifier: PendingAnswer], timer: DispatchSourceTimer?)>(([:], nil))

    func add(_ pending: PendingAnswer) {
        state.withLock { state in
            state.watched[ObjectIdentifier(pending)] = pending
            guard state.timer == nil else { return }
            // Started by the first held answer with a limit, and kept: four wake-ups a second.
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
            timer.setEventHandler { [weak self] in self?.sweep() }
            state.timer = timer
            timer.resume()
        }
    }

    func remove(_ pending: PendingAnswer) {
        _ = state.withLock { $0.watched.removeValue(forKey: ObjectIdentifier(pending)) }
    }

    private func sweep() {
        let now = ContinuousClock.now
        let candidates = state.withLock { Array($0.watched.values) }
        for pending in candidates where pending.expireIfDue(now) { remove(pending) }
    }
}

/// The input turn a thread runs (unretained; set only during the turn).
private let currentKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
