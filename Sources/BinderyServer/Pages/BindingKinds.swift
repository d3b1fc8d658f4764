import Foundation

/// The binding kinds, read from the browser client's own table (`Client/kinds.js`),
/// so that the first paint binds exactly the attributes the client binds.
struct BindingKinds: Sendable {
    /// What a kind does with its value.
    enum Effect: String, Decodable, Sendable {
        case text, html, value, hidden, disabled, style, attribute, `class`, list, fieldErrors, signal
    }

    struct Kind: Decodable, Sendable {
        let effect: Effect
        /// For `hidden` and `disabled`: on a truthy value, or on a falsy one.
        var when: String?
        /// For a family (`class-`): the name after it.
        var name: String?

        /// Whether the effect is on (`hidden` set, `disabled` set) for `value`.
        func isOn(_ value: JSONValue?) -> Bool {
            let truthy = value?.isTruthy ?? false
            return when == "falsy" ? !truthy : truthy
        }
    }

    private let kinds: [String: Kind]

    /// The table in `script`, the object after `export const BINDING_KINDS =` up to its `};`.
    init(script: Data) throws {
        let text = String(decoding: script, as: UTF8.self)
        guard let declaration = text.range(of: "export const BINDING_KINDS ="),
            let open = text[declaration.upperBound...].firstIndex(of: "{"),
            let close = text[open...].range(of: "\n};")
        else { throw CocoaError(.fileReadCorruptFile) }
        kinds = try JSONDecoder().decode([String: Kind].self, from: Data(text[open..<text.index(close.lowerBound, offsetBy: 2)].utf8))
    }

    /// The kind of an attribute's name after its prefix (`text`, `class-done`), or nil.
    func kind(_ name: Substring) -> Kind? {
        if !name.hasSuffix("-"), let kind = kinds[String(name)] { return kind }
        guard let dash = name.firstIndex(of: "-"), dash > name.startIndex, name.index(after: dash) < name.endIndex,
            var kind = kinds[String(name[...dash])]
        else { return nil }
        kind.name = String(name[name.index(after: dash)...])
        return kind
    }
}
