import Foundation

/// HTML from an output (`data-html`) made safe for a page's first paint, by the
/// browser client's own table (`Client/sanitize.js`), so that the server and the
/// client keep the same elements and attributes: the table's elements with their
/// listed attributes, others unwrapped (their content kept), the dropped ones
/// removed with their content, comments removed, a URL of another scheme than
/// the listed ones removed, and `rel="nofollow noopener noreferrer"` on links.
/// Text is written again escaped, so what the parser read is what a browser reads.
struct SafeHTML: Sendable {
    private struct Table: Decodable {
        let elements: [String: [String]]
        let dropped: [String]
        let urls: [String]
        let schemes: [String]
    }

    private let elements: [String: Set<String>]
    private let dropped: Set<String>
    private let urls: Set<String>
    private let schemes: Set<String>

    /// The table in `script`, the object after `export const SAFE_HTML =` up to its `};`.
    init(script: Data) throws {
        let text = String(decoding: script, as: UTF8.self)
        guard let declaration = text.range(of: "export const SAFE_HTML ="),
            let open = text[declaration.upperBound...].firstIndex(of: "{"),
            let close = text[open...].range(of: "\n};")
        else { throw CocoaError(.fileReadCorruptFile) }
        let table = try JSONDecoder().decode(Table.self, from: Data(text[open..<text.index(close.lowerBound, offsetBy: 2)].utf8))
        elements = table.elements.mapValues(Set.init)
        dropped = Set(table.dropped)
        urls = Set(table.urls)
        schemes = Set(table.schemes)
    }

    /// `html` as safe nodes.
    func nodes(_ html: String) -> [HTMLNode] {
        clean(HTMLTree.parse(html))
    }

    private func clean(_ nodes: [HTMLNode]) -> [HTMLNode] {
        var out: [HTMLNode] = []
        for node in nodes {
            switch node {
            case .markup:
                continue
            case .text(let text):
                out.append(.text(HTMLText.escaped(CharacterReferences.resolved(text))))
            case .element(let element):
                guard !dropped.contains(element.name) else { continue }
                let children = clean(element.children)
                guard let allowed = elements[element.name] else {
                    out += children
                    continue
                }
                let attributes = element.attributes.filter { name, value in
                    allowed.contains(name) && (!urls.contains(name) || isSafeURL(value ?? ""))
                }
                let kept = HTMLElement(name: element.name, attributes: attributes, children: children)
                if element.name == "a", kept.has("href") { kept.set("rel", "nofollow noopener noreferrer") }
                out.append(.element(kept))
            }
        }
        return out
    }

    /// `isSafeURL` of `Client/sanitize.js`: relative, or of an allowed scheme, ignoring
    /// the control characters and spaces browsers skip.
    func isSafeURL(_ url: String) -> Bool {
        let plain = url.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }
        func isLetter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
        let scheme = plain.prefix { isLetter($0) || ("0"..."9").contains($0) || "+.-".unicodeScalars.contains($0) }
        guard let first = scheme.first, isLetter(first), plain.dropFirst(scheme.count).first == ":" else { return true }
        return schemes.contains(String(String.UnicodeScalarView(scheme)).lowercased())
    }
}
