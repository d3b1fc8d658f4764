import Bindery
import Foundation

/// What the browser client makes of an output's value, for the server to make
/// the same of it: JavaScript's truthiness, its `String(value)`, and `pick`'s
/// reading of a dotted path (`Client/dom.js`). nil stands for `undefined`.
extension JSONValue {
    /// `!!value` in JavaScript.
    var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let value): return value
        case .number(let value): return value != 0 && !value.isNaN
        case .string(let value): return !value.isEmpty
        case .array, .object: return true
        }
    }

    /// `String(value)` in JavaScript: an array joins its items with commas (null as
    /// nothing), an object is `[object Object]`.
    var javaScriptString: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return Self.javaScriptString(of: value)
        case .string(let value): return value
        case .array(let items):
            return items.map { item in item == .null ? "" : item.javaScriptString }.joined(separator: ",")
        case .object: return "[object Object]"
        }
    }

    /// `value[key]` in JavaScript, for the values JSON has: an object's member, an
    /// array's item or `length`, a string's UTF-16 unit or `length`.
    func member(_ key: String) -> JSONValue? {
        switch self {
        case .object(let members):
            return members[key]
        case .array(let items):
            if key == "length" { return .number(Double(items.count)) }
            guard let index = Self.arrayIndex(key), index < items.count else { return nil }
            return items[index]
        case .string(let text):
            let units = Array(text.utf16)
            if key == "length" { return .number(Double(units.count)) }
            guard let index = Self.arrayIndex(key), index < units.count else { return nil }
            return .string(String(decoding: [units[index]], as: UTF16.self))
        case .null, .bool, .number:
            return nil
        }
    }

    /// `pick(value, path)`: the value itself for a path without a dot, else the
    /// path after its first segment read member by member.
    func picked(_ path: String) -> JSONValue? {
        guard path.contains(".") else { return self }
        var value: JSONValue? = self
        for key in path.split(separator: ".", omittingEmptySubsequences: false).dropFirst() {
            guard let current = value, current != .null else { return value }
            value = current.member(String(key))
        }
        return value
    }

    /// A canonical array index ("0", "12"; not "01" or "-1").
    private static func arrayIndex(_ key: String) -> Int? {
        guard let index = Int(key), index >= 0, String(index) == key else { return nil }
        return index
    }

    /// JavaScript's `Number.prototype.toString()`: the shortest digits that read back
    /// as `value`, in positional form from 1e-6 to 1e21, else as `d.ddde±n`.
    static func javaScriptString(of value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return "0" }
        if value < 0 { return "-" + javaScriptString(of: -value) }
        // Swift's description has the shortest round-tripping digits too; take them and
        // their exponent, and lay them out as JavaScript does.
        let description = "\(value)"
        let (mantissa, exponentText) = description.split(separator: "e", maxSplits: 1).map(String.init).splitFirst()
        var exponent = Int(exponentText ?? "0") ?? 0
        var digits = mantissa
        if let dot = digits.firstIndex(of: ".") {
            let fraction = digits[digits.index(after: dot)...]
            exponent += digits.distance(from: digits.startIndex, to: dot)
            digits = String(digits[..<dot]) + fraction
        } else {
            exponent += digits.count
        }
        // `exponent` now places the decimal point after that many digits (n in ECMA-262's terms).
        let leadingZeros = digits.prefix { $0 == "0" }.count
        digits.removeFirst(leadingZeros)
        exponent -= leadingZeros
        while digits.hasSuffix("0") { digits.removeLast() }
        let k = digits.count
        let n = exponent
        if k <= n && n <= 21 { return digits + String(repeating: "0", count: n - k) }
        if 0 < n && n <= 21 { return String(digits.prefix(n)) + "." + digits.dropFirst(n) }
        if -6 < n && n <= 0 { return "0." + String(repeating: "0", count: -n) + digits }
        let sign = n - 1 < 0 ? "-" : "+"
        let head = k == 1 ? digits : String(digits.prefix(1)) + "." + digits.dropFirst()
        return head + "e" + sign + String(abs(n - 1))
    }
}

extension Array where Element == String {
    fileprivate func splitFirst() -> (String, String?) { (self[0], count > 1 ? self[1] : nil) }
}
