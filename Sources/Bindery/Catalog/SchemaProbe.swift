/// Learns the JSON shape of a `Decodable` type by decoding it once from
/// nothing: every key asked for becomes a property, with the schema of the
/// type asked for; optional keys are not required.
/// A stand-in value of `type`, decoded from nothing (zeros, empty strings and
/// collections, first cases), or nil if the type refuses it.
package func standInValue<T: Decodable>(of type: T.Type) -> T? {
    SchemaProbe.standIn(type)
}

final class SchemaProbe: Decoder {
    private(set) var properties: [String: JSONValue] = [:]
    private(set) var required: [String] = []
    private var keyed = false
    let codingPath: [CodingKey]
    let userInfo: [CodingUserInfoKey: Any] = [:]
    private let depth: Int

    private init(depth: Int, codingPath: [CodingKey]) {
        self.depth = depth
        self.codingPath = codingPath
    }

    /// The object schema of `type`, or nil if it is not a keyed struct.
    static func schema(of type: any Decodable.Type, depth: Int = 0) -> JSONValue? {
        guard depth < 5 else { return nil }
        let probe = SchemaProbe(depth: depth, codingPath: [])
        func decode<T: Decodable>(_ type: T.Type) { _ = try? T(from: probe) }
        decode(type)
        guard probe.keyed else { return nil }
        return ["type": "object", "properties": .object(probe.properties), "required": .array(probe.required.map(JSONValue.string))]
    }

    /// A stand-in value of `type`, decoded from nothing (zeros, empty strings and
    /// collections, first cases), or nil if the type refuses it.
    static func standIn<T: Decodable>(_ type: T.Type) -> T? {
        if let cases = T.self as? any CaseIterable.Type, let first = firstCase(cases) as? T { return first }
        return try? T(from: Placeholder(codingPath: []))
    }

    fileprivate func record(_ key: String, _ type: Any.Type, optional: Bool) {
        if properties[key] == nil, !optional { required.append(key) }
        properties[key] = JSONSchema.of(type, depth: depth + 1)
    }

    /// A stand-in value of `T`, so decoding can go on to the next key.
    fileprivate func placeholder<T: Decodable>(_ type: T.Type) throws -> T {
        if let cases = T.self as? any CaseIterable.Type, let first = Self.firstCase(cases) as? T { return first }
        return try T(from: Placeholder(codingPath: codingPath))
    }

    private static func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? { C.allCases.first }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        keyed = true
        return KeyedDecodingContainer(Container(probe: self))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer { try Placeholder(codingPath: codingPath).unkeyedContainer() }
    func singleValueContainer() throws -> SingleValueDecodingContainer { try Placeholder(codingPath: codingPath).singleValueContainer() }

    private struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let probe: SchemaProbe
        var codingPath: [CodingKey] { probe.codingPath }
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            probe.record(key.stringValue, T.self, optional: false)
            return try probe.placeholder(T.self)
        }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            try decodeIfPresent(T.self as Any.Type, key)
        }
        // Synthesized code calls these concrete overloads, whose defaults would
        // decode the key as required.
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresent(type as Any.Type, key) }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeIfPresent(type as Any.Type, key) }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeIfPresent(type as Any.Type, key) }
        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodeIfPresent(type as Any.Type, key) }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIfPresent(type as Any.Type, key) }
        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIfPresent(type as Any.Type, key) }
        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIfPresent(type as Any.Type, key) }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIfPresent(type as Any.Type, key) }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIfPresent(type as Any.Type, key) }
        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIfPresent(type as Any.Type, key) }
        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIfPresent(type as Any.Type, key) }
        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeIfPresent(type as Any.Type, key) }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeIfPresent(type as Any.Type, key) }
        func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeIfPresent(type as Any.Type, key) }
        private func decodeIfPresent<T>(_ type: Any.Type, _ key: Key) throws -> T? {
            probe.record(key.stringValue, type, optional: true)
            return nil
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            probe.record(key.stringValue, [String: JSONValue].self, optional: false)
            return try Placeholder(codingPath: codingPath).container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
            probe.record(key.stringValue, [JSONValue].self, optional: false)
            return try Placeholder(codingPath: codingPath).unkeyedContainer()
        }
        func superDecoder() throws -> Decoder { Placeholder(codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> Decoder { Placeholder(codingPath: codingPath) }
    }
}

/// Decodes zero values: 0, "", false, empty arrays, objects of placeholders.
private struct Placeholder: Decoder, SingleValueDecodingContainer, UnkeyedDecodingContainer {
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed<Key>(codingPath: codingPath))
    }
    func unkeyedContainer() throws -> UnkeyedDecodingContainer { self }
    func singleValueContainer() throws -> SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch T.self {
        case is String.Type: return "" as! T
        case is Bool.Type: return false as! T
        case is Double.Type: return 0.0 as! T
        case is Float.Type: return Float(0) as! T
        case is Int.Type: return 0 as! T
        case is Int64.Type: return Int64(0) as! T
        case is Int32.Type: return Int32(0) as! T
        case is UInt.Type: return UInt(0) as! T
        case is UInt64.Type: return UInt64(0) as! T
        default:
            if let cases = T.self as? any CaseIterable.Type, let first = Self.firstCase(cases) as? T { return first }
            return try T(from: self)
        }
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer { self }
    mutating func superDecoder() throws -> Decoder { self }

    private static func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? { C.allCases.first }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let codingPath: [CodingKey]
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try Placeholder(codingPath: codingPath).decode(type) }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { nil }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            KeyedDecodingContainer(Placeholder.Keyed<NestedKey>(codingPath: codingPath))
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer { Placeholder(codingPath: codingPath) }
        func superDecoder() throws -> Decoder { Placeholder(codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> Decoder { Placeholder(codingPath: codingPath) }
    }
}
