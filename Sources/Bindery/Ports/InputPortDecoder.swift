/// Builds a ViewModel's `Input` struct through its synthesized `init(from:)`:
/// each property asked for becomes an input port named after the property.
final class InputPortDecoder: Decoder {
    private(set) var ports: [InputPort] = []
    let codingPath: [CodingKey] = []
    let userInfo: [CodingUserInfoKey: Any] = [:]

    /// Builds `Input`, returning it and its ports in declaration order.
    static func build<Input: Decodable>(_ type: Input.Type) throws -> (Input, [InputPort]) {
        let decoder = InputPortDecoder()
        do {
            let input = try Input(from: decoder)
            return (input, decoder.ports)
        } catch let error as BinderyError {
            throw error
        } catch {
            throw BinderyError(.viewModelFailed, "cannot build \(Input.self): \(error)")
        }
    }

    fileprivate func port<T>(_ type: T.Type, named name: String) throws -> T {
        guard let convertible = T.self as? InputPortConvertible.Type else {
            throw BinderyError(.viewModelFailed, "input property '\(name)' is a \(T.self); inputs must be Observable, Signal or Driver")
        }
        let made = try convertible.makeInputPort(named: name)
        ports.append(made.port)
        return made.value as! T
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container(decoder: self))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        throw BinderyError(.viewModelFailed, "a ViewModel Input must be a struct of observables")
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer {
        throw BinderyError(.viewModelFailed, "a ViewModel Input must be a struct of observables")
    }

    private struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: InputPortDecoder
        var codingPath: [CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try decoder.port(type, named: key.stringValue)
        }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.port(type, named: key.stringValue) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.port(type, named: key.stringValue) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.port(type, named: key.stringValue) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.port(type, named: key.stringValue) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.port(type, named: key.stringValue) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.port(type, named: key.stringValue) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.port(type, named: key.stringValue) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.port(type, named: key.stringValue) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.port(type, named: key.stringValue) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.port(type, named: key.stringValue) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.port(type, named: key.stringValue) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.port(type, named: key.stringValue) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.port(type, named: key.stringValue) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.port(type, named: key.stringValue) }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw BinderyError(.viewModelFailed, "input property '\(key.stringValue)' must be an observable")
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
            throw BinderyError(.viewModelFailed, "input property '\(key.stringValue)' must be an observable")
        }
        func superDecoder() throws -> Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> Decoder { decoder }
    }
}
