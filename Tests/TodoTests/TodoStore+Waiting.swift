import Foundation
import Todo

/// The store's changes waited for, so that a test reads on once each has committed.
extension TodoStore {
    func add(_ title: String, to list: String) throws { try wait { add(title, to: list, completion: $0) } }
    func rename(_ id: Int64, in list: String, to title: String) throws { try wait { rename(id, in: list, to: title, completion: $0) } }
    func toggle(_ id: Int64, in list: String) throws { try wait { toggle(id, in: list, completion: $0) } }
    func toggleAll(in list: String) throws { try wait { toggleAll(in: list, completion: $0) } }
    func delete(_ id: Int64, from list: String) throws { try wait { delete(id, from: list, completion: $0) } }
    func move(_ id: Int64, in list: String, to index: Int) throws { try wait { move(id, in: list, to: index, completion: $0) } }
    func clearCompleted(in list: String) throws { try wait { clearCompleted(in: list, completion: $0) } }

    private func wait(_ change: (@escaping Completion) -> Void) throws {
        let outcome = Outcome()
        change { result in outcome.set(result) }
        try outcome.get()
    }
}

/// A change's outcome, handed from the store's thread to the test's.
private final class Outcome: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<Void, Error>?

    func set(_ result: Result<Void, Error>) {
        self.result = result
        done.signal()
    }

    func get() throws {
        guard done.wait(timeout: .now() + 10) == .success, let result else { throw TimedOut() }
        try result.get()
    }

    struct TimedOut: Error {}
}
