import Foundation

/// A type that states its own JSON schema (for inputs and outputs the catalog describes).
public protocol JSONSchemaProviding {
    /// The JSON schema of the type's JSON form.
    static var jsonSchema: JSONValue { get }
}

/// Derives a JSON schema from a Swift type, as far as the type tells.
enum JSONSchema {
    static func of(_ type: Any.Type, depth: Int = 0) -> JSONValue {
        if type == Void.self { return ["type": "null"] }
        if let provider = type as? JSONSchemaProviding.Type { return provider.jsonSchema }
        if let optional = type as? OptionalSchema.Type { return ["anyOf": [of(optional.wrappedType, depth: depth), ["type": "null"]]] }
        if let array = type as? ArraySchema.Type { return ["type": "array", "items": of(array.elementType, depth: depth)] }
        if type == JSONValue.self { return [:] }
        switch type {
        case is Bool.Type: return ["type": "boolean"]
        case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type,
            is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type:
            return ["type": "integer"]
        case is Double.Type, is Float.Type: return ["type": "number"]
        case is String.Type: return ["type": "string"]
        default: break
        }
        if let cases = enumCases(type) { return cases }
        if let decodable = type as? any Decodable.Type, let object = SchemaProbe.schema(of: decodable, depth: depth) { return object }
        return ["type": "object"]
    }

    /// An output that emits a ViewModel: the reference to the new session.
    static func childSession(_ viewModel: String?) -> JSONValue {
        var schema: JSONValue = [
            "type": "object", "required": ["viewModel", "id", "url"],
            "properties": [
                "viewModel": ["type": "string"], "id": ["type": "string"], "url": ["type": "string"],
            ],
        ]
        if case .object(var object) = schema, let viewModel {
            object["x-bindery-view-model"] = .string(viewModel)
            schema = .object(object)
        }
        return schema
    }

    /// A `CaseIterable` type whose cases encode as strings: an enum schema.
    private static func enumCases(_ type: Any.Type) -> JSONValue? {
        guard let iterable = type as? any CaseIterable.Type else { return nil }
        func values<T: CaseIterable>(_ type: T.Type) -> [JSONValue]? {
            var result: [JSONValue] = []
            for value in T.allCases {
                guard let encodable = value as? any Encodable,
                    let data = try? JSONEncoder.bindery.encodeOpened(encodable),
                    let json = try? JSONDecoder().decode(JSONValue.self, from: data)
                else { return nil }
                result.append(json)
            }
            return result
        }
        guard let cases = values(iterable), let first = cases.first else { return nil }
        let kind: JSONValue
        switch first {
        case .string: kind = "string"
        case .number: kind = "number"
        default: return nil
        }
        return ["type": kind, "enum": .array(cases)]
    }
}

protocol OptionalSchema { static var wrappedType: Any.Type { get } }
extension Optional: OptionalSchema { static var wrappedType: Any.Type { Wrapped.self } }

protocol ArraySchema { static var elementType: Any.Type { get } }
extension Array: ArraySchema { static var elementType: Any.Type { Element.self } }

// A keyed list is an array where a value is read whole (`GET …/outputs/<name>`, a
// snapshot); its changes go only on the event stream.
extension KeyedList: ArraySchema { static var elementType: Any.Type { Item.self } }
