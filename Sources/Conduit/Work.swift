import Bindery
import BinderyAccounts
import Foundation
import Synchronization

/// The work of an input off the session's thread (a database read or write):
/// its answer held until the work is done, a `ConduitError` said at its field
/// (`problems`), a limit (429) or the database's failure (503, 507) as the
/// answer. Taken in the input's turn.
enum Work {
    static func run(_ problems: BehaviorRelay<[String: String]>? = nil, _ work: @escaping @Sendable () async throws -> Void) {
        let answer = AnswerHold.take()
        Task {
            do {
                try await work()
                problems?.accept([:])
                answer?.release()
            } catch let refusal as ConduitError {
                problems?.accept([refusal.field: refusal.message])
                answer?.release()
            } catch let refusal as AccountError {
                if let error = refusal.binderyError { return answer?.release(failing: error) ?? () }
                let field = if case .weakPassword = refusal { "password" } else if case .wrongLoginOrPassword = refusal { "password" } else { "email" }
                problems?.accept([field: refusal.description])
                answer?.release()
            } catch {
                answer?.release(failing: error)
            }
        }
    }
}

/// A value read from the store, read again when what it shows changes: the last
/// read started wins, whatever order the reads end in.
final class Loaded<Value: Sendable>: Sendable {
    let relay: BehaviorRelay<Value>
    private let generation = Mutex(0)

    init(_ value: Value) { relay = BehaviorRelay(value: value) }

    /// Reads with `read` off the session's thread, holding the input's answer (if in one) until it is shown.
    func load(_ read: @escaping @Sendable () async throws -> Value) {
        let turn = generation.withLock { value -> Int in
            value += 1
            return value
        }
        Work.run { [self] in
            let value = try await read()
            if generation.withLock({ $0 == turn }) { relay.accept(value) }
        }
    }

    var driver: Driver<Value> { relay.asDriver() }
}
