import Foundation

/// The inputs a session was sent with a client's key (`Idempotency-Key`),
/// the most recent `capacity` of them, and what each was answered: a repeat
/// of a key is not applied again. It waits for the first's answer if that is
/// still coming, and gets it once it has come; the same key with another
/// input or payload is refused.
///
/// An input refused before it was applied (`applied: false`: a full disk, a
/// database away) leaves no trace: its repeat is applied. One answered 504
/// `answer_timeout` (applied, its work still going) is answered 504 again
/// until that work ends, and how it ended from then on.
///
/// Kept with the session's record (`StoredSession.inputKeys`), in the same
/// capture as its declared state: after a restart, a key is known exactly when
/// the state holds its input's effects.
///
/// Confined to the session's turns.
final class InputKeys {
    /// What a key's input came to.
    enum Outcome: Equatable {
        /// Not answered yet.
        case pending
        /// Answered 504: applied, and its work goes on (`ended` tells how it ends).
        case running(BinderyError)
        /// Answered with its snapshot.
        case succeeded
        /// Answered with this failure (one that did apply, or may have).
        case failed(BinderyError)
    }

    /// What to do with an input that came with a key.
    enum Admission {
        /// A new key: apply the input.
        case apply
        /// Its input is being applied: its answer will be this one's too.
        case join
        /// Answered before: answer the same, without applying it.
        case replay(Outcome)
        /// The key came with another input or payload.
        case reused
    }

    private struct Entry {
        let fingerprint: UInt64
        var outcome: Outcome
        var waiters: [@Sendable (Result<Snapshot, BinderyError>) -> Void] = []
    }

    let capacity: Int
    private var entries: [String: Entry] = [:]
    /// The keys, oldest first: the first goes when there are more than `capacity`.
    private var order: [String] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// What to do with `key`'s input, whose name and payload hash to `fingerprint`;
    /// `completion` is kept for a `join`.
    func admit(_ key: String, fingerprint: UInt64, completion: @escaping @Sendable (Result<Snapshot, BinderyError>) -> Void) -> Admission {
        guard var entry = entries[key] else {
            entries[key] = Entry(fingerprint: fingerprint, outcome: .pending)
            order.append(key)
            if order.count > capacity { entries[order.removeFirst()] = nil }
            return .apply
        }
        guard entry.fingerprint == fingerprint else { return .reused }
        guard entry.outcome == .pending else { return .replay(entry.outcome) }
        entry.waiters.append(completion)
        entries[key] = entry
        return .join
    }

    /// `key`'s input was answered `result`: its repeats waiting meanwhile get the same.
    func answered(_ key: String, _ result: Result<Snapshot, BinderyError>) {
        guard var entry = entries[key] else { return }
        let waiters = entry.waiters
        entry.waiters = []
        switch result {
        case .success:
            entry.outcome = .succeeded
        case .failure(let error) where error.applied == false:
            // Not applied: a repeat is a first try.
            forget(key)
            return waiters.forEach { $0(result) }
        case .failure(let error) where error.code == .answerTimeout:
            // Applied, its work still going: repeats are told so until it ends (`ended`).
            entry.outcome = .running(error)
        case .failure(let error):
            entry.outcome = .failed(error)
        }
        entries[key] = entry
        waiters.forEach { $0(result) }
    }

    /// The work of `key`'s input, answered 504 before, has ended with `failure` (nil: done).
    func ended(_ key: String, failure: BinderyError?) {
        guard var entry = entries[key], case .running = entry.outcome else { return }
        if let failure, failure.applied == false { return forget(key) }
        entry.outcome = failure.map(Outcome.failed) ?? .succeeded
        entries[key] = entry
    }

    private func forget(_ key: String) {
        entries[key] = nil
        order.removeAll { $0 == key }
    }

    /// The answered keys, oldest first, for the session's record.
    func capture() throws -> Data? {
        let answered = order.compactMap { key -> Stored? in
            guard let entry = entries[key] else { return nil }
            switch entry.outcome {
            case .pending, .running: return nil
            case .succeeded: return Stored(key: key, fingerprint: entry.fingerprint, error: nil, message: nil, applied: nil)
            case .failed(let error):
                return Stored(key: key, fingerprint: entry.fingerprint, error: error.code.rawValue, message: error.message, applied: error.applied)
            }
        }
        return answered.isEmpty ? nil : try JSONEncoder().encode(answered)
    }

    /// Takes back what `capture` kept (a record that does not decode keeps nothing).
    func restore(_ data: Data?) {
        guard let data, let stored = try? JSONDecoder().decode([Stored].self, from: data) else { return }
        for item in stored.suffix(capacity) {
            let outcome: Outcome = item.error.map { .failed(BinderyError(.init(rawValue: $0), item.message ?? "", applied: item.applied)) } ?? .succeeded
            entries[item.key] = Entry(fingerprint: item.fingerprint, outcome: outcome)
            order.append(item.key)
        }
    }

    /// A key in the session's record.
    private struct Stored: Codable {
        let key: String
        let fingerprint: UInt64
        let error: String?
        let message: String?
        let applied: Bool?
    }

    /// The fingerprint of input `name` with `payload`: FNV-1a, the same in every
    /// process (Swift's `Hasher` is seeded anew in each).
    static func fingerprint(_ name: String, _ payload: Data) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        name.utf8.forEach(add)
        add(0)
        payload.forEach(add)
        return hash
    }
}
