import Foundation

/// Turns an input's JSON body into the input's element type, with errors a client can act on.
enum Payload {
    /// A decoder for `Element`, or nil if `Element` is neither `Void` nor `Decodable`.
    static func decoder<Element>(for type: Element.Type) -> ((Data) throws -> Element)? {
        if Element.self == Void.self {
            return { data in
                let text = trimmed(data)
                if text.isEmpty { return () as! Element }
                if (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) == nil {
                    throw BinderyError(.malformedJSON, "the body is not valid JSON")
                }
                guard text.elementsEqual("null".utf8) else {
                    throw BinderyError(.invalidPayload, "this input takes no payload; send an empty body or null")
                }
                return () as! Element
            }
        }
        guard let decodable = Element.self as? any Decodable.Type else { return nil }
        return { data in try decode(decodable, from: data) as! Element }
    }

    /// `data` without JSON whitespace around it.
    private static func trimmed(_ data: Data) -> Data.SubSequence {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        guard let first = data.firstIndex(where: { !isSpace($0) }), let last = data.lastIndex(where: { !isSpace($0) }) else {
            return data[data.startIndex..<data.startIndex]
        }
        return data[first...last]
    }

    private static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if trimmed(data).isEmpty {
            throw BinderyError(.invalidPayload, "this input needs a JSON body of type \(describe(type))")
        }
        guard (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil else {
            throw BinderyError(.malformedJSON, "the body is not valid JSON")
        }
        do {
            return try JSONDecoder.bindery.decode(type, from: data)
        } catch let error as DecodingError {
            throw BinderyError(.invalidPayload, explain(error))
        }
    }

    /// A sentence naming the field and what was wrong with it.
    static func explain(_ error: DecodingError) -> String {
        func path(_ codingPath: [CodingKey]) -> String {
            let joined = codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return joined.isEmpty ? "the payload" : "field '\(joined)'"
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(describe(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(describe(type)), found null"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "the payload does not match the input's type"
        }
    }

    static func describe(_ type: Any.Type) -> String {
        switch JSONSchema.of(type)["type"] {
        case .string(let name)?:
            if name == "object" { return "an object (\(type))" }
            return (name.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + name
        default: return "\(type)"
        }
    }
}
