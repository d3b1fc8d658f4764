import Foundation

extension ObservableType where Element == Data {
    /// Decodes each element as an `Item` with `decoder`; a decoding error ends the sequence.
    public func decode<Item: Decodable>(type: Item.Type, decoder: some DataDecoder) -> Observable<Item> {
        map { try decoder.decode(type, from: $0) }
    }
}

/// Something that decodes a value from data, as `JSONDecoder` does.
public protocol DataDecoder {
    /// Decodes an `Item` from `data`.
    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}
