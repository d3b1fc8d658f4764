/// Text put into HTML the server writes (a page's parameters, a path in the not-found
/// page): escaped for an element's content and for a quoted attribute value alike.
enum HTMLText {
    /// `value` with `&`, `<`, `>`, `"` and `'` as character references.
    static func escaped(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "&": escaped += "&amp;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
