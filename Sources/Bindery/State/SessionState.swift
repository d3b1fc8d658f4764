import Foundation
import Synchronization

/// A session's declared state: the `SessionRelay`s its ViewModel made while
/// it was made, in that order, which the session saves and rebuilds from.
///
/// Stored as `{"relays": [{"type": "<Swift type>", "json": "<its value as JSON text>"}, …]}`
/// (the text as the relay's type encoded it: nothing is lost to a round trip).
/// A rebuild gives each new relay the value stored at its place if the type
/// there is its own; `isRestored` then says whether every stored value found
/// its relay and every relay its value, so a ViewModel whose relays changed
/// between versions is made again afresh rather than half restored.
///
/// Threading: `declare` and `restoredValue` run while the ViewModel is made,
/// in the session's turn; `changed` from any thread; `capture` in the session's turns.
final class SessionState: @unchecked Sendable {
    /// The state of the session whose ViewModel is being made on this thread.
    @TaskLocal static var current: SessionState?

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    /// What the stored state says, if the session is being rebuilt.
    private let stored: [Stored]?
    /// Relays made so far, in order.
    private var declared: [Declared] = []
    /// Whether every relay made so far found its stored value.
    private var allFound = true
    /// Whether a relay changed since the last `capture`.
    private let isChanged = Atomic<Bool>(false)
    /// Called when a relay changes while its state was unchanged: the session tells its store.
    private let onChange: @Sendable () -> Void

    private struct Stored: Codable {
        let type: String
        let json: String
    }

    private struct Declared {
        let type: String
        /// The relay's value as JSON; nil once the relay is gone.
        let encode: () throws -> Data?
        /// The last value encoded, kept for a relay that is gone.
        var last: Data?
    }

    /// Whether there was a stored state that is not even a document of relays.
    private let isUnreadable: Bool

    /// The state of a new session (`stored` nil) or of one rebuilt from
    /// `stored`; `onChange` hears of the first change after each capture.
    init(restoring stored: Data?, onChange: @escaping @Sendable () -> Void) {
        self.onChange = onChange
        struct Document: Decodable { let relays: [Stored] }
        self.stored = stored.flatMap { try? JSONDecoder().decode(Document.self, from: $0).relays }
        isUnreadable = stored != nil && self.stored == nil
    }

    /// Whether the session was rebuilt from stored values, all of them used.
    var isRestored: Bool { !isUnreadable && stored != nil && allFound && stored?.count == declared.count }

    /// The stored value at the place of the relay being made, if it has one of type `T`.
    func restoredValue<T: Decodable>(as type: T.Type) -> T? {
        guard let stored else { return nil }
        let place = declared.count
        guard place < stored.count, stored[place].type == Self.name(of: T.self),
            let value = try? JSONDecoder.bindery.decode(T.self, from: Data(stored[place].json.utf8))
        else {
            allFound = false
            return nil
        }
        return value
    }

    /// Records a relay of `type` at the next place, read by `encode`.
    func declare<T>(type: T.Type, encode: @escaping () throws -> Data?) {
        declared.append(Declared(type: Self.name(of: T.self), encode: encode))
    }

    /// Whether any relay was made: a session without one has nothing to keep.
    var isEmpty: Bool { declared.isEmpty }

    /// Marks the state changed; the first change after a capture is told.
    func changed() {
        if !isChanged.exchange(true, ordering: .acquiringAndReleasing) { onChange() }
    }

    /// Every relay's value as the stored document; clears the change mark
    /// first, so a change made while it reads is marked again.
    func capture() throws -> Data {
        isChanged.store(false, ordering: .sequentiallyConsistent)
        var relays: [Stored] = []
        for index in declared.indices {
            if let data = try declared[index].encode() { declared[index].last = data }
            relays.append(Stored(type: declared[index].type, json: String(decoding: declared[index].last ?? Data("null".utf8), as: UTF8.self)))
        }
        struct Document: Encodable { let relays: [Stored] }
        return try Self.encoder.encode(Document(relays: relays))
    }

    private static func name<T>(of type: T.Type) -> String { String(reflecting: type) }
}
