import Foundation
import Ink

/// An article's Markdown as HTML, by Ink. Not made safe here: raw HTML in the
/// Markdown passes through Ink as it is, and the page binds it with `data-html`,
/// which keeps only what Bindery's table allows (the first paint and the browser alike).
enum Markdown {
    static func html(_ markdown: String) -> String {
        MarkdownParser().html(from: markdown)
    }
}

/// Slugs and path segments.
enum Slug {
    /// `title` as a slug: lower-case letters and digits in words joined by `-`
    /// ("How to Train Your Dragon!" → "how-to-train-your-dragon"); "article" if nothing is left.
    static func make(_ title: String) -> String {
        let folded = title.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
        let words = folded.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.prefix(12)
        let slug = words.joined(separator: "-")
        return slug.isEmpty ? "article" : String(slug.prefix(80))
    }

    /// `text` as one segment of a URL's path (a username with a space or a slash stays one segment).
    static func pathSegment(_ text: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
