import Foundation
import Synchronization

/// A list of keyed items that goes on the wire as what changed since the
/// value before it, rather than whole: an output of `KeyedList` sends its
/// full value to a stream once (on connect, in a snapshot, after a reset, to
/// a stream that skipped some of its events) and then each change as
/// `{"bindery.changes": [...]}` (`docs/protocol.md`), so that a change costs
/// what it changes, however long the list.
///
/// A value made from another by `inserting`, `updating`, `removing`,
/// `moving` or `applying` carries the changes that made it. A value made any
/// other way (`init`, `map`) is sent whole. Every session that shows the same
/// value (a store's relay that several sessions read) shares its encodings,
/// made once, on first use.
///
/// `KeyedList` is a `RandomAccessCollection` of its items, so a ViewModel
/// derives from it as from an array, and it encodes as the plain array of
/// its items.
public struct KeyedList<Item: Identifiable & Codable>: RandomAccessCollection, Encodable {
    /// The items, in order.
    public let items: [Item]
    /// What changed from the value this one was made from (nil if it was not
    /// made from another): what its outputs send, and what a store that
    /// shares the list with other processes passes on to them.
    public let changes: [ListChange<Item>]?
    /// Identifies this value among every `KeyedList`, and holds its encodings.
    let identity: KeyedListIdentity

    /// A list of `items`, sent whole.
    public init(_ items: [Item] = []) {
        self.init(items, changes: nil, base: nil)
    }

    private init(_ items: [Item], changes: [ListChange<Item>]?, base: UInt64?) {
        self.items = items
        self.changes = changes
        identity = KeyedListIdentity(base: base)
    }

    public var startIndex: Int { items.startIndex }
    public var endIndex: Int { items.endIndex }
    public subscript(position: Int) -> Item { items[position] }

    /// Encodes as the plain array of its items.
    public func encode(to encoder: Encoder) throws { try items.encode(to: encoder) }

    /// The index of the item with `id`, if there is one.
    public func index(of id: Item.ID) -> Int? { items.firstIndex { $0.id == id } }

    /// This list with `item` inserted at `index` (clamped to the list).
    public func inserting(_ item: Item, at index: Int? = nil) -> KeyedList {
        applying([.insert(item, at: Swift.min(Swift.max(0, index ?? items.count), items.count))])
    }

    /// This list with the item of `item`'s id replaced by `item`; unchanged if there is none.
    public func updating(_ item: Item) -> KeyedList {
        guard let index = index(of: item.id) else { return self }
        return applying([.update(item, at: index)])
    }

    /// This list without the item `id`; unchanged if there is none.
    public func removing(id: Item.ID) -> KeyedList {
        guard let index = index(of: id) else { return self }
        return applying([.remove(id: id, at: index)])
    }

    /// This list with the item `id` moved to `index` (clamped), the others closing up.
    public func moving(id: Item.ID, to destination: Int) -> KeyedList {
        guard let from = index(of: id) else { return self }
        let to = Swift.min(Swift.max(0, destination), items.count - 1)
        guard to != from else { return self }
        return applying([.move(id: id, from: from, to: to)])
    }

    /// This list with `changes` applied in order; each change's index is in
    /// the list as the changes before it left it.
    public func applying(_ changes: [ListChange<Item>]) -> KeyedList {
        guard !changes.isEmpty else { return self }
        var items = items
        for change in changes { change.apply(to: &items) }
        return KeyedList(items, changes: changes, base: identity.version)
    }
}

extension KeyedList: Equatable where Item: Equatable {
    /// Equal items, in the same order.
    public static func == (lhs: KeyedList, rhs: KeyedList) -> Bool { lhs.items == rhs.items }
}

extension KeyedList: Decodable {
    /// Decodes a plain array of items, as it is encoded.
    public init(from decoder: Decoder) throws { self.init(try [Item](from: decoder)) }
}

extension KeyedList: @unchecked Sendable where Item: Sendable {}

/// One change of a `KeyedList`, as its outputs send it: an item inserted,
/// updated, removed or moved, with its index in the list as it is then.
public enum ListChange<Item: Identifiable & Codable> {
    /// `item` inserted at `at`.
    case insert(Item, at: Int)
    /// The item at `at` (the same id) replaced by `item`.
    case update(Item, at: Int)
    /// The item `id`, at `at`, removed.
    case remove(id: Item.ID, at: Int)
    /// The item `id` moved from `from` to `to` (an index in the list without it).
    case move(id: Item.ID, from: Int, to: Int)

    func apply(to items: inout [Item]) {
        switch self {
        case .insert(let item, let index): items.insert(item, at: index)
        case .update(let item, let index): items[index] = item
        case .remove(_, let index): items.remove(at: index)
        case .move(_, let from, let to): items.insert(items.remove(at: from), at: to)
        }
    }
}

extension ListChange: Encodable {
    private enum Key: String, CodingKey { case op, index, from, to, id, item }

    /// `{"op":"insert","index":i,"item":…}`, `{"op":"update","index":i,"item":…}`,
    /// `{"op":"remove","index":i,"id":…}`, `{"op":"move","from":i,"to":j,"id":…}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .insert(let item, let index):
            try container.encode("insert", forKey: .op)
            try container.encode(index, forKey: .index)
            try container.encode(item, forKey: .item)
        case .update(let item, let index):
            try container.encode("update", forKey: .op)
            try container.encode(index, forKey: .index)
            try container.encode(item, forKey: .item)
        case .remove(let id, let index):
            try container.encode("remove", forKey: .op)
            try container.encode(index, forKey: .index)
            try Self.encode(id, in: &container)
        case .move(let id, let from, let to):
            try container.encode("move", forKey: .op)
            try container.encode(from, forKey: .from)
            try container.encode(to, forKey: .to)
            try Self.encode(id, in: &container)
        }
    }

    /// The id, where it is encodable (it is for every `Codable` item's usual id).
    private static func encode(_ id: Item.ID, in container: inout KeyedEncodingContainer<Key>) throws {
        if let id = id as? any Encodable { try container.encode(id, forKey: .id) }
    }
}

extension ListChange: Decodable where Item.ID: Decodable {
    /// Reads a change as `encode(to:)` writes it.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        switch try container.decode(String.self, forKey: .op) {
        case "insert": self = .insert(try container.decode(Item.self, forKey: .item), at: try container.decode(Int.self, forKey: .index))
        case "update": self = .update(try container.decode(Item.self, forKey: .item), at: try container.decode(Int.self, forKey: .index))
        case "remove": self = .remove(id: try container.decode(Item.ID.self, forKey: .id), at: try container.decode(Int.self, forKey: .index))
        case "move":
            self = .move(
                id: try container.decode(Item.ID.self, forKey: .id), from: try container.decode(Int.self, forKey: .from),
                to: try container.decode(Int.self, forKey: .to))
        case let op: throw DecodingError.dataCorruptedError(forKey: .op, in: container, debugDescription: "no list change is called '\(op)'")
        }
    }
}

extension ListChange: @unchecked Sendable where Item: Sendable {}

/// An output value sent as its changes where it can be (a `KeyedList`): what
/// a session needs to choose between the changes and the whole.
package protocol ChangingValue {
    /// The value's version.
    var version: UInt64 { get }
    /// The version its changes apply to, if it has changes.
    var base: UInt64? { get }
    /// The whole value as JSON, made once for every session that sends it.
    func fullJSON() throws -> Data
    /// `{"bindery.changes":[…]}`, made once, if the value has changes worth
    /// sending: fewer than the items (a list of one is smaller sent whole).
    func changesJSON() throws -> Data?
}

extension KeyedList: ChangingValue {
    package var version: UInt64 { identity.version }
    package var base: UInt64? { changes == nil ? nil : identity.base }

    package func fullJSON() throws -> Data {
        if let full = identity.encodings.withLock({ $0.full }) { return full }
        let full = try JSONEncoder.bindery.encode(items)
        identity.encodings.withLock { $0.full = full }
        return full
    }

    package func changesJSON() throws -> Data? {
        guard let changes, changes.count < items.count else { return nil }
        if let json = identity.encodings.withLock({ $0.changes }) { return json }
        let json = Data(#"{"bindery.changes":"#.utf8) + (try JSONEncoder.bindery.encode(changes)) + Data("}".utf8)
        identity.encodings.withLock { $0.changes = json }
        return json
    }
}

/// A `KeyedList` value's place in the chain of values (its version, and the
/// version its changes apply to) and its encodings, made once for every
/// session that sends it.
final class KeyedListIdentity: Sendable {
    private static let versions = Atomic<UInt64>(0)

    /// This value's version: unique among all `KeyedList` values.
    let version: UInt64
    /// The version of the value this one's changes apply to.
    let base: UInt64?
    /// The full value and the changes, as JSON, once made.
    let encodings = Locked<(full: Data?, changes: Data?)>((nil, nil))

    init(base: UInt64?) {
        version = Self.versions.add(1, ordering: .relaxed).newValue
        self.base = base
    }
}
