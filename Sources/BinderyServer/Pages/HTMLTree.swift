/// An HTML page as a tree, for the first paint (`FirstPaint`) to write values
/// into: parsed from an app's own page, written back out with only the changed
/// parts different. Text and comments keep their source bytes; an attribute's
/// value is read (character references resolved) and written again quoted and
/// escaped. It parses what browsers parse for pages that close what they open;
/// of HTML's implied end tags it knows the common ones (`li`, `p`, `option`,
/// `tr`, `td`, `dt`, `dd`), and an end tag with no open element is dropped.
final class HTMLElement {
    /// The lower-case tag name.
    let name: String
    /// The attributes in their order; a value of nil is an attribute written bare (`hidden`).
    var attributes: [(name: String, value: String?)]
    var children: [HTMLNode]

    init(name: String, attributes: [(name: String, value: String?)] = [], children: [HTMLNode] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    subscript(_ name: String) -> String? {
        guard let found = attributes.first(where: { $0.name == name }) else { return nil }
        return found.value ?? ""
    }

    func has(_ attribute: String) -> Bool { attributes.contains { $0.name == attribute } }

    /// Sets `name` to `value` (bare when it is ""), where it was or last.
    func set(_ name: String, _ value: String) {
        if let index = attributes.firstIndex(where: { $0.name == name }) {
            attributes[index].value = value
        } else {
            attributes.append((name, value))
        }
    }

    func remove(_ name: String) { attributes.removeAll { $0.name == name } }

    /// The child elements, in order.
    var elements: [HTMLElement] {
        children.compactMap { if case .element(let element) = $0 { return element } else { return nil } }
    }

    /// This element and every one inside it, in document order, not entering
    /// an element for which `enters` is false (it is visited itself).
    func walk(entering enters: (HTMLElement) -> Bool = { _ in true }, _ visit: (HTMLElement) -> Void) {
        visit(self)
        guard enters(self) else { return }
        for child in elements { child.walk(entering: enters, visit) }
    }

    /// The text inside, character references as written.
    var sourceText: String {
        children.map { node in
            switch node {
            case .text(let text): return text
            case .element(let element): return element.sourceText
            case .markup: return ""
            }
        }.joined()
    }

    /// A deep copy.
    func copy() -> HTMLElement {
        HTMLElement(
            name: name, attributes: attributes,
            children: children.map { node in
                if case .element(let element) = node { return .element(element.copy()) }
                return node
            })
    }

    /// Elements whose end tag HTML leaves out and which never have content.
    static let void: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]
    /// Elements whose content is text up to their end tag, never tags.
    static let rawText: Set<String> = ["script", "style", "textarea", "title", "xmp"]
}

enum HTMLNode {
    case element(HTMLElement)
    /// Text as written in the source (character references not resolved); text a
    /// render puts in is escaped as it is made (`HTMLText.escaped`).
    case text(String)
    /// A comment, a doctype or a processing instruction, as written.
    case markup(String)
}

enum HTMLTree {
    /// The nodes of `source`.
    static func parse(_ source: String) -> [HTMLNode] {
        var parser = Parser(bytes: Array(source.utf8))
        return parser.parse()
    }

    /// `nodes` as HTML.
    static func serialize(_ nodes: [HTMLNode]) -> String {
        var out = ""
        out.reserveCapacity(4096)
        for node in nodes { write(node, to: &out) }
        return out
    }

    private static func write(_ node: HTMLNode, to out: inout String) {
        switch node {
        case .text(let text), .markup(let text):
            out += text
        case .element(let element):
            out += "<" + element.name
            for (name, value) in element.attributes {
                out += " " + name
                if let value, !value.isEmpty { out += "=\"" + HTMLText.escaped(value) + "\"" }
            }
            out += ">"
            guard !HTMLElement.void.contains(element.name) else { return }
            for child in element.children { write(child, to: &out) }
            out += "</" + element.name + ">"
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        /// Elements a start tag of the key closes when one is open (up to the boundary).
        static let closedBy: [String: (closes: Set<String>, within: Set<String>)] = [
            "li": (["li"], ["ul", "ol", "menu"]),
            "option": (["option"], ["select", "datalist", "optgroup"]),
            "optgroup": (["option", "optgroup"], ["select"]),
            "tr": (["tr", "td", "th"], ["table", "thead", "tbody", "tfoot"]),
            "td": (["td", "th"], ["tr", "table"]),
            "th": (["td", "th"], ["tr", "table"]),
            "dt": (["dt", "dd"], ["dl"]),
            "dd": (["dt", "dd"], ["dl"]),
        ]
        /// Start tags that close an open `p`.
        static let closesParagraph: Set<String> = [
            "address", "article", "aside", "blockquote", "details", "dialog", "div", "dl", "fieldset", "figcaption", "figure", "footer",
            "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "main", "menu", "nav", "ol", "p", "pre", "section", "table", "ul",
        ]

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func parse() -> [HTMLNode] {
            let document = HTMLElement(name: "#document")
            var stack = [document]
            var textStart = index
            func flushText(_ end: Int, into stack: [HTMLElement]) {
                if end > textStart { stack.last!.children.append(.text(string(textStart..<end))) }
            }
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count else {
                    index += 1
                    continue
                }
                let next = bytes[index + 1]
                let tagStart = index
                if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
                    flushText(tagStart, into: stack)
                    let end: Int
                    if starts(with: "<!--", at: index) {
                        end = find("-->", from: index + 4).map { $0 + 3 } ?? bytes.count
                    } else {
                        end = (firstIndex(of: UInt8(ascii: ">"), from: index) ?? bytes.count - 1) + 1
                    }
                    stack.last!.children.append(.markup(string(tagStart..<end)))
                    index = end
                    textStart = index
                } else if next == UInt8(ascii: "/"), index + 2 < bytes.count, isLetter(bytes[index + 2]) {
                    flushText(tagStart, into: stack)
                    index += 2
                    let name = readName()
                    index = (firstIndex(of: UInt8(ascii: ">"), from: index) ?? bytes.count - 1) + 1
                    textStart = index
                    if let open = stack.lastIndex(where: { $0.name == name }), open > 0 { stack.removeSubrange(open...) }
                } else if isLetter(next) {
                    flushText(tagStart, into: stack)
                    index += 1
                    let name = readName()
                    let (attributes, selfClosing) = readAttributes()
                    textStart = index
                    let element = HTMLElement(name: name, attributes: attributes)
                    close(for: name, in: &stack)
                    stack.last!.children.append(.element(element))
                    if HTMLElement.void.contains(name) || (selfClosing && !HTMLElement.rawText.contains(name)) { continue }
                    if HTMLElement.rawText.contains(name) {
                        let end = findEndTag(name) ?? bytes.count
                        if end > index { element.children.append(.text(string(index..<end))) }
                        index = end < bytes.count ? (firstIndex(of: UInt8(ascii: ">"), from: end) ?? bytes.count - 1) + 1 : end
                        textStart = index
                        continue
                    }
                    stack.append(element)
                } else {
                    index += 1
                }
            }
            flushText(bytes.count, into: stack)
            return document.children
        }

        /// Pops what a start tag of `name` implicitly ends.
        private func close(for name: String, in stack: inout [HTMLElement]) {
            if Self.closesParagraph.contains(name), let p = openIndex(of: ["p"], within: ["button", "table", "template"], in: stack) {
                stack.removeSubrange(p...)
            }
            if let rule = Self.closedBy[name], let open = openIndex(of: rule.closes, within: rule.within.union(["template"]), in: stack) {
                stack.removeSubrange(open...)
            }
        }

        /// Where in `stack` an element of `names` is open above any of `boundaries`.
        private func openIndex(of names: Set<String>, within boundaries: Set<String>, in stack: [HTMLElement]) -> Int? {
            for position in stack.indices.dropFirst().reversed() {
                if names.contains(stack[position].name) { return position }
                if boundaries.contains(stack[position].name) { return nil }
            }
            return nil
        }

        private mutating func readName() -> String {
            let start = index
            while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "/") {
                index += 1
            }
            return string(start..<index).lowercased()
        }

        /// The attributes up to the tag's `>` (index after it), and whether it ended `/>`.
        private mutating func readAttributes() -> ([(name: String, value: String?)], Bool) {
            var attributes: [(name: String, value: String?)] = []
            var selfClosing = false
            while index < bytes.count {
                while index < bytes.count, isSpace(bytes[index]) { index += 1 }
                guard index < bytes.count else { break }
                if bytes[index] == UInt8(ascii: ">") {
                    index += 1
                    break
                }
                if bytes[index] == UInt8(ascii: "/") {
                    selfClosing = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: ">")
                    index += 1
                    continue
                }
                selfClosing = false
                let start = index
                while index < bytes.count, !isSpace(bytes[index]), !"=>/".utf8.contains(bytes[index]) || index == start { index += 1 }
                let name = string(start..<index).lowercased()
                while index < bytes.count, isSpace(bytes[index]) { index += 1 }
                guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                    if !attributes.contains(where: { $0.name == name }) { attributes.append((name, nil)) }
                    continue
                }
                index += 1
                while index < bytes.count, isSpace(bytes[index]) { index += 1 }
                let value: String
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    let quote = bytes[index]
                    let end = firstIndex(of: quote, from: index + 1) ?? bytes.count
                    value = string(index + 1..<end)
                    index = min(end + 1, bytes.count)
                } else {
                    let valueStart = index
                    while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
                    value = string(valueStart..<index)
                }
                // The first of a name counts, as in a browser.
                if !attributes.contains(where: { $0.name == name }) { attributes.append((name, CharacterReferences.resolved(value))) }
            }
            return (attributes, selfClosing)
        }

        /// Where `</name` starts (any case), from `index`.
        private func findEndTag(_ name: String) -> Int? {
            let pattern = Array("</\(name)".utf8)
            var position = index
            while let found = firstIndex(of: UInt8(ascii: "<"), from: position) {
                guard found + pattern.count <= bytes.count else { return nil }
                var matches = true
                for offset in 1..<pattern.count where lower(bytes[found + offset]) != pattern[offset] {
                    matches = false
                    break
                }
                let after = found + pattern.count
                if matches, after == bytes.count || isSpace(bytes[after]) || bytes[after] == UInt8(ascii: ">") || bytes[after] == UInt8(ascii: "/") {
                    return found
                }
                position = found + 1
            }
            return nil
        }

        private func starts(with text: String, at position: Int) -> Bool {
            let pattern = Array(text.utf8)
            return position + pattern.count <= bytes.count && Array(bytes[position..<position + pattern.count]) == pattern
        }

        private func find(_ text: String, from position: Int) -> Int? {
            let pattern = Array(text.utf8)
            var position = position
            while position + pattern.count <= bytes.count {
                if bytes[position] == pattern[0], starts(with: text, at: position) { return position }
                position += 1
            }
            return nil
        }

        private func firstIndex(of byte: UInt8, from position: Int) -> Int? {
            var position = position
            while position < bytes.count {
                if bytes[position] == byte { return position }
                position += 1
            }
            return nil
        }

        private func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        private func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D }
        private func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
    }
}

/// HTML's character references in an attribute's value: the numeric ones and
/// the few named ones a page writes by hand (`&amp;`, `&lt;`, `&gt;`, `&quot;`,
/// `&apos;`, `&nbsp;`); any other `&` stays as it is.
enum CharacterReferences {
    private static let named: [Substring: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}"]

    static func resolved(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            out += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            if let semicolon = after.prefix(10).firstIndex(of: ";"), let character = character(after[..<semicolon]) {
                out += character
                rest = after[after.index(after: semicolon)...]
            } else {
                out += "&"
                rest = after
            }
        }
        return out + rest
    }

    private static func character(_ name: Substring) -> String? {
        if let named = named[name] { return named }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let code = digits.hasPrefix("x") || digits.hasPrefix("X") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
        return code.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
}
