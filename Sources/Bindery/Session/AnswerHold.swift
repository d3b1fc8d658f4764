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
///     store.add(title, to: list) { result in
///         if case .failure(let error) = result { errors.accept("\(error)") }
///         answer?.release()
///     }
/// })
/// ```
///
/// The answer (the session's drivers) is then made in a turn after the last
/// release, so it shows what the work emitted before it released its hold.
/// A hold let go of without `release` releases itself. Outside an input's
/// turn (a timer, a service's callback, a ViewModel tested on its own)
/// `take()` is nil: there is no answer to hold.
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

    deinit { release() }
}

/// The input a session applies on this thread: set for its turn (the input
/// and everything it runs inline), read by `AnswerHold.take`.
///
/// Threading: `begin`, `hold` and `end` in the session's turn.
package final class InputTurn {
    /// The answer held by this turn's holds, made by the first.
    private var pending: PendingAnswer?

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
        defer { pending = nil }
        return pending
    }

    fileprivate func hold() -> PendingAnswer {
        let pending = self.pending ?? PendingAnswer()
        self.pending = pending
        pending.hold()
        return pending
    }
}

/// The answer to one input while holds are on it: answered once every hold
/// is released, or told it timed out, whichever comes first; never both.
///
/// Thread safety: any thread.
package final class PendingAnswer: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    /// The holds not yet released, the input's turn counting as one while it runs.
    private var holds = 1
    /// What answers once none are left.
    private var answer: (() -> Void)?
    /// What answers if the holds outlast the limit.
    private var timedOut: (() -> Void)?
    /// The limit's timer, until it fires or the holds are released.
    private var timer: DispatchSourceTimer?
    /// One of the two ran (or is running).
    private var isDone = false

    fileprivate init() {}

    fileprivate func hold() {
        lock.withLock { holds += 1 }
    }

    fileprivate func release() {
        let (answer, timer) = lock.withLock { () -> ((() -> Void)?, DispatchSourceTimer?) in
            holds -= 1
            guard holds == 0, !isDone, let answer = self.answer else { return (nil, nil) }
            isDone = true
            defer { (self.answer, timedOut, self.timer) = (nil, nil, nil) }
            return (answer, self.timer)
        }
        timer?.cancel()
        answer?()
    }

    /// The input's turn has ended: `answer` runs once every hold is released
    /// (on the thread that releases the last one), or `timedOut` does if
    /// they are not all released within `limit` (on a timer's thread).
    package func whenReleased(within limit: Duration? = nil, _ answer: @escaping () -> Void, orElse timedOut: @escaping () -> Void = {}) {
        lock.withLock {
            self.answer = answer
            self.timedOut = timedOut
            guard let limit, holds > 1 else { return }
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + .nanoseconds(Int(limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000)))
            timer.setEventHandler { [weak self] in self?.expire() }
            self.timer = timer
            timer.resume()
        }
        release()
    }

    private func expire() {
        let timedOut = lock.withLock { () -> (() -> Void)? in
            guard !isDone else { return nil }
            isDone = true
            defer { (answer, self.timedOut, timer) = (nil, nil, nil) }
            return self.timedOut
        }
        timedOut?()
    }
}

/// The input turn a thread runs (unretained; set only during the turn).
private let currentKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
