import Bindery
import BinderyAccounts
import Foundation
import Synchronization

/// A ViewModel's work off the session's thread (the store's reads and
/// writes), one piece at a time in the order it was asked for: a second
/// favorite never overtakes the first, and a page's reads show in the order
/// they were made. Taken in an input's turn, a piece holds the input's answer
/// until it is done, with what it started for the same ViewModel (the page
/// read again after its own write): the answer shows the write's effect. A
/// `ConduitError` is said at its field (`problems`); a limit (429) or the
/// database's failure (503, 507) is the answer.
///
/// One per ViewModel (made in `bind`); thread safety: `run` from any thread.
final class Work: Sendable {
    /// The last piece asked for: the next waits for it.
    private let last = Mutex<Task<Void, Never>?>(nil)

    /// The piece running in this task, so that what it starts for the same
    /// ViewModel runs after it, within its hold.
    @TaskLocal private static var running: Running?

    private final class Running: Sendable {
        let work: ObjectIdentifier
        let followUps = Mutex<[@Sendable () async -> Void]>([])
        init(_ work: Work) { self.work = ObjectIdentifier(work) }
    }

    func run(_ problems: BehaviorRelay<[String: String]>? = nil, _ body: @escaping @Sendable () async throws -> Void) {
        if let running = Self.running, running.work == ObjectIdentifier(self) {
            running.followUps.withLock { $0.append { _ = await Self.perform(body, problems) } }
            return
        }
        let answer = AnswerHold.take()
        last.withLock { previous in
            previous = Task { [previous] in
                await previous?.value
                let running = Running(self)
                let failure = await Self.$running.withValue(running) { () async -> Error? in
                    let failure = await Self.perform(body, problems)
                    // Its follow-ups fail on their own: the piece itself was done.
                    while let next = running.followUps.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { await next() }
                    return failure
                }
                if let failure { answer?.release(failing: failure) } else { answer?.release() }
            }
        }
    }

    /// Runs `body`; the failure the input is answered with, if any.
    private static func perform(_ body: @Sendable () async throws -> Void, _ problems: BehaviorRelay<[String: String]>?) async -> Error? {
        do {
            try await body()
            problems?.accept([:])
        } catch let refusal as ConduitError {
            problems?.accept([refusal.field: refusal.message])
        } catch let refusal as AccountError {
            if let error = refusal.binderyError { return error }
            let field = if case .weakPassword = refusal { "password" } else if case .wrongLoginOrPassword = refusal { "password" } else { "email" }
            problems?.accept([field: refusal.description])
        } catch {
            return error
        }
        return nil
    }

    /// A value this ViewModel reads from the store.
    func loaded<Value: Sendable>(_ value: Value) -> Loaded<Value> { Loaded(value, work: self) }
}

/// A value read from the store, read again when what it shows changes.
final class Loaded<Value: Sendable>: Sendable {
    let relay: BehaviorRelay<Value>
    private let work: Work

    fileprivate init(_ value: Value, work: Work) {
        relay = BehaviorRelay(value: value)
        self.work = work
    }

    /// Reads with `read` in the ViewModel's work, after what was asked before it.
    func load(_ read: @escaping @Sendable () async throws -> Value) {
        work.run { [relay] in relay.accept(try await read()) }
    }

    var driver: Driver<Value> { relay.asDriver() }
}
