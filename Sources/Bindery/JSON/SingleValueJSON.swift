import Foundation

/// Writes a value whose `encode(to:)` puts one string, integer, boolean or
/// null into a single-value container (an enum with a raw value, a wrapper
/// struct) as `JSONText` writes it, which is what `JSONEncoder.bindery` writes:
/// `JSONEncoder` costs several times more for such a value, on every event.
///
/// Any other shape gives nil and the caller uses `JSONEncoder`: keyed or
/// unkeyed containers, floating point, values `JSONEncoder` treats specially
/// (dates, data, URLs, decimals), nothing encoded, or two values encoded.
///
/// Not thread-safe: one instance per encoding.
final class SingleValueJSON: Encoder, SingleValueEncodingContainer {
    /// `value` as JSON, or nil when it is not a single primitive.
    static func encode<T: Encodable>(_ value: T) -> Data? {
        let writer = SingleValueJSON()
        do {
            try value.encode(to: writer)
        } catch {
            // JSONEncoder will throw the same error, or succeed where this refused.
            return nil
        }
        guard !writer.refused, let bytes = writer.bytes else { return nil }
        return Data(bytes)
    }

    private var bytes: [UInt8]?
    /// The value asked for something other than one primitive.
    fileprivate(set) var refused = false

    var codingPath: [CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        refused = true
        return KeyedEncodingContainer(Refusing<Key>(writer: self))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        refused = true
        return RefusingUnkeyed(writer: self)
    }

    func singleValueContainer() -> SingleValueEncodingContainer { self }

    private func write(_ body: (inout [UInt8]) -> Void) {
        guard bytes == nil else {
            refused = true
            return
        }
        var written: [UInt8] = []
        body(&written)
        bytes = written
    }

    private func write<T: BinaryInteger>(integer value: T) { write { $0.append(contentsOf: String(value).utf8) } }

    func encodeNil() throws { write { $0.append(contentsOf: "null".utf8) } }
    func encode(_ value: Bool) throws { write { $0.append(contentsOf: value ? "true".utf8 : "false".utf8) } }
    func encode(_ value: String) throws { write { JSONText.appendQuoted(value, to: &$0) } }
    func encode(_ value: Int) throws { write(integer: value) }
    func encode(_ value: Int8) throws { write(integer: value) }
    func encode(_ value: Int16) throws { write(integer: value) }
    func encode(_ value: Int32) throws { write(integer: value) }
    func encode(_ value: Int64) throws { write(integer: value) }
    func encode(_ value: UInt) throws { write(integer: value) }
    func encode(_ value: UInt8) throws { write(integer: value) }
    func encode(_ value: UInt16) throws { write(integer: value) }
    func encode(_ value: UInt32) throws { write(integer: value) }
    func encode(_ value: UInt64) throws { write(integer: value) }
    // Floating point has JSONEncoder's own formatting; any other type may be one JSONEncoder treats specially.
    func encode(_ value: Double) throws { refused = true }
    func encode(_ value: Float) throws { refused = true }
    func encode<T: Encodable>(_ value: T) throws { refused = true }
}

/// A keyed container that only refuses: what a struct's synthesized `encode(to:)` gets.
private struct Refusing<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: SingleValueJSON
    var codingPath: [CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(Refusing<NestedKey>(writer: writer))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer { RefusingUnkeyed(writer: writer) }
    mutating func superEncoder() -> Encoder { writer }
    mutating func superEncoder(forKey key: Key) -> Encoder { writer }
}

/// An unkeyed container that only refuses: what an array's `encode(to:)` gets.
private struct RefusingUnkeyed: UnkeyedEncodingContainer {
    let writer: SingleValueJSON
    var codingPath: [CodingKey] { [] }
    var count: Int { 0 }
    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws {}
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(Refusing<NestedKey>(writer: writer))
    }
    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer { RefusingUnkeyed(writer: writer) }
    mutating func superEncoder() -> Encoder { writer }
}
