import Bindery

/// Writes a session's output values into a bound root of a page, as the browser
/// client would once it had them (`Client/dom.js`'s `applyBindings` and the
/// binding's list rendering), by the same table of kinds (`BindingKinds`).
/// Every value goes in escaped. What the client alone can do stays for it:
/// styles (the Content-Security-Policy forbids style attributes) and signals.
struct PageRender {
    let kinds: BindingKinds
    /// What `data-html` keeps of its value.
    let safeHTML: SafeHTML

    /// Applies `outputs` (by name) to `root` and the elements inside it, outside templates.
    func render(_ root: HTMLElement, outputs: [String: JSONValue]) {
        var elements: [HTMLElement] = []
        root.walk(entering: { $0.name != "template" }) { element in
            if element === root || element.name != "template" { elements.append(element) }
        }
        func value(_ path: String) -> JSONValue?? {
            let name = path.prefix { $0 != "." }
            guard let output = outputs[String(name)] else { return .none }
            return .some(output.picked(path))
        }
        for element in elements {
            apply(element, prefix: "data-") { path in value(path) }
            if let path = element["data-list"], let items = value(path) {
                renderList(element, items: items)
            }
        }
    }

    /// The rows of `items` from `container`'s `<template>`, after it, keyed as the client keys them.
    private func renderList(_ container: HTMLElement, items: JSONValue?) {
        guard case .array(let items)? = items,
            let template = container.elements.first(where: { $0.name == "template" }),
            let prototype = template.elements.first
        else { return }
        let keyField = container["data-key"] ?? "id"
        let rows = items.enumerated().map { index, item -> HTMLNode in
            let row = prototype.copy()
            if case .object(let members) = item, let key = members[keyField] {
                row.set("data-key", key.javaScriptString)
            } else {
                row.set("data-key", String(index))
            }
            bindItem(row, item)
            return .element(row)
        }
        guard let at = container.children.firstIndex(where: { if case .element(let e) = $0 { return e === template } else { return false } }) else {
            return
        }
        container.children.insert(contentsOf: rows, at: at + 1)
    }

    /// `bindItem` of `Client/dom.js`: `item` applied to the `data-item-` bindings of `row`
    /// and everything inside it, a `data-item-list` inside it rendered as a list of its
    /// own (its rows from its own template, each bound to its value, after the template).
    private func bindItem(_ row: HTMLElement, _ item: JSONValue) {
        apply(row, prefix: "data-item-") { path in .some(path == "." ? item : item.picked("." + path)) }
        if let path = row["data-item-list"] {
            let items = path == "." ? item : item.picked("." + path)
            guard let template = row.elements.first(where: { $0.name == "template" }), let prototype = template.elements.first,
                let at = row.children.firstIndex(where: { if case .element(let e) = $0 { return e === template } else { return false } })
            else { return }
            row.children.removeSubrange((at + 1)...)
            guard case .array(let values)? = items else { return }
            for value in values {
                let nested = prototype.copy()
                bindItem(nested, value)
                row.children.append(.element(nested))
            }
            return
        }
        for child in row.elements where child.name != "template" { bindItem(child, item) }
    }

    /// Applies the bindings of `element` whose attribute starts with `prefix`; `value`
    /// gives a path's value (nil: the output is not there, so the binding waits).
    private func apply(_ element: HTMLElement, prefix: String, value: (String) -> JSONValue??) {
        for (name, path) in element.attributes where name.hasPrefix(prefix) {
            guard let kind = kinds.kind(name.dropFirst(prefix.count)), let found = value(path ?? "") else { continue }
            let value = found == .null ? nil : found
            switch kind.effect {
            case .text:
                element.children = [.text(HTMLText.escaped(value?.javaScriptString ?? ""))]
            case .html:
                element.children = safeHTML.nodes(value?.javaScriptString ?? "")
            case .value:
                setValue(element, value)
            case .hidden:
                toggle(element, "hidden", kind.isOn(value))
            case .disabled:
                toggle(element, "disabled", kind.isOn(value))
            case .attribute:
                guard let name = kind.name else { continue }
                switch value {
                case nil, .bool(false)?: element.remove(name)
                case .bool(true)?: element.set(name, "")
                case let value?: element.set(name, value.javaScriptString)
                }
            case .class:
                guard let name = kind.name else { continue }
                toggleClass(element, name, value?.isTruthy ?? false)
            case .fieldErrors:
                showFieldErrors(element, value)
            case .style, .list, .signal:
                continue
            }
        }
    }

    /// `showFieldErrors` of `Client/dom.js`: each named field's message next to it, the field
    /// `aria-invalid` and `aria-describedby` that message.
    private func showFieldErrors(_ container: HTMLElement, _ errors: JSONValue?) {
        let messages: [String: JSONValue]
        if case .object(let object)? = errors { messages = object } else { messages = [:] }
        var groups: [(name: String, controls: [(control: HTMLElement, parent: HTMLElement)])] = []
        var slots: [(name: String, element: HTMLElement)] = []
        var ids: Set<String> = []
        func visit(_ element: HTMLElement) {
            for child in element.elements {
                if let id = child["id"] { ids.insert(id) }
                if let name = child["data-field-error"] { slots.append((name, child)) }
                if ["input", "select", "textarea"].contains(child.name), let name = child["name"] {
                    if let index = groups.firstIndex(where: { $0.name == name }) {
                        groups[index].controls.append((child, element))
                    } else {
                        groups.append((name, [(child, element)]))
                    }
                }
                if child.name != "template" { visit(child) }
            }
        }
        visit(container)
        for (name, controls) in groups {
            let text = Self.errorText(messages[name])
            var slot = slots.first { $0.name == name }?.element
            if slot == nil && !text.isEmpty, let (last, parent) = controls.last {
                let made = HTMLElement(name: "span", attributes: [("class", "bindery-field-error"), ("data-field-error", name)])
                let at = parent.children.firstIndex { if case .element(let e) = $0 { return e === last } else { return false } } ?? parent.children.count - 1
                parent.children.insert(.element(made), at: at + 1)
                slot = made
            }
            guard let slot else { continue }
            if slot["id"] == nil {
                // As the client's /[^A-Za-z0-9_-]/g, unit by UTF-16 unit.
                let base =
                    "bindery-error-"
                    + String(
                        name.utf16.map { unit -> Character in
                            let ascii = UInt8(truncatingIfNeeded: unit)
                            let kept = unit < 0x80 && (ascii.isLetterOrDigit || ascii == UInt8(ascii: "_") || ascii == UInt8(ascii: "-"))
                            return kept ? Character(Unicode.Scalar(ascii)) : "_"
                        })
                var id = base
                var n = 2
                while ids.contains(id) {
                    id = "\(base)-\(n)"
                    n += 1
                }
                ids.insert(id)
                slot.set("id", id)
            }
            let id = slot["id"] ?? ""
            slot.children = text.isEmpty ? [] : [.text(HTMLText.escaped(text))]
            toggle(slot, "hidden", text.isEmpty)
            for (control, _) in controls {
                var described = (control["aria-describedby"] ?? "").split(whereSeparator: \.isWhitespace).map(String.init).filter { $0 != id }
                if text.isEmpty {
                    control.remove("aria-invalid")
                } else {
                    control.set("aria-invalid", "true")
                    described.append(id)
                }
                if described.isEmpty { control.remove("aria-describedby") } else { control.set("aria-describedby", described.joined(separator: " ")) }
            }
        }
    }

    /// `errorText` of `Client/dom.js`: a message, or several joined by spaces; "" for null or false.
    private static func errorText(_ message: JSONValue?) -> String {
        switch message {
        case nil, .null?, .bool(false)?: return ""
        case .array(let items)?: return items.filter { $0 != .null }.map(\.javaScriptString).joined(separator: " ")
        case let message?: return message.javaScriptString
        }
    }

    /// `element.value = value ?? ""` (a checkbox: `checked = !!value`), as HTML says it.
    private func setValue(_ element: HTMLElement, _ value: JSONValue?) {
        let text = value?.javaScriptString ?? ""
        switch element.name {
        case "input" where element["type"]?.lowercased() == "checkbox":
            toggle(element, "checked", value?.isTruthy ?? false)
        case "input", "button", "option", "data", "param":
            element.set("value", text)
        case "textarea", "output":
            element.children = [.text(HTMLText.escaped(text))]
        case "select":
            var chosen = false
            element.walk { option in
                guard option.name == "option" else { return }
                let optionValue = option["value"] ?? Self.collapsed(CharacterReferences.resolved(option.sourceText))
                let selected = !chosen && optionValue == text
                chosen = chosen || selected
                toggle(option, "selected", selected)
            }
        default:
            break
        }
    }

    private func toggle(_ element: HTMLElement, _ attribute: String, _ on: Bool) {
        if on {
            if !element.has(attribute) { element.set(attribute, "") }
        } else {
            element.remove(attribute)
        }
    }

    /// `classList.toggle(name, on)`: the list rewritten only when it changes.
    private func toggleClass(_ element: HTMLElement, _ name: String, _ on: Bool) {
        var classes: [String] = []
        for token in (element["class"] ?? "").split(whereSeparator: { " \t\n\r\u{0C}".contains($0) }) where !classes.contains(String(token)) {
            classes.append(String(token))
        }
        guard classes.contains(name) != on else { return }
        if on { classes.append(name) } else { classes.removeAll { $0 == name } }
        element.set("class", classes.joined(separator: " "))
    }

    /// An option's text as its value: whitespace collapsed and trimmed.
    private static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: { " \t\n\r\u{0C}".contains($0) }).joined(separator: " ")
    }
}

extension UInt8 {
    /// An ASCII letter or digit.
    fileprivate var isLetterOrDigit: Bool { (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
}
