import Bindery
import Foundation

/// A page at a real URL: `PageRoute("/profile/:user", file: "profile.html", viewModel: "profile")`
/// serves `profile.html` (from the public folder) at `/profile/alice`, its root of
/// `data-bindery="profile"` given `{"user": "alice"}` as its creation parameters
/// (`data-bindery-params`, over any the file has). A path that does not match, or
/// whose typed parameter does not read as its type, is not this page (404).
public struct PageRoute: Sendable {
    /// A segment of the pattern: a word as it is, or a parameter (`:name`, `:name(int)`).
    enum Part: Equatable, Sendable {
        case literal(String)
        case parameter(String, isInteger: Bool)
    }

    let parts: [Part]
    /// The page's file, in the public folder.
    public let file: String
    /// The ViewModel of the page's bound root.
    public let viewModel: String
    /// Whether the page is only for a signed-in browser: another is sent to the sign-in page.
    public let needsSignIn: Bool
    /// Which signed-in identities may have the page (nil: any); another gets 403.
    public let allows: (@Sendable (Identity) -> Bool)?
    /// Creation parameters the route gives besides its path's (`["favorites": true]`); the path's win.
    public let fixed: [String: JSONValue]

    /// The page `file` for `viewModel` at the paths `pattern` matches: segments
    /// separated by `/`, each a word or `:name` (one segment, a string) or
    /// `:name(int)` (one segment, an integer).
    /// `allows`, if given, makes the page need a signed-in browser whose identity it accepts.
    /// `parameters` are given as creation parameters too, under the path's.
    public init(
        _ pattern: String, file: String, viewModel: String, parameters: [String: JSONValue] = [:], needsSignIn: Bool = false,
        allows: (@Sendable (Identity) -> Bool)? = nil
    ) {
        self.needsSignIn = needsSignIn || allows != nil
        self.allows = allows
        fixed = parameters
        parts = pattern.split(separator: "/").map { segment in
            guard segment.hasPrefix(":") else { return .literal(String(segment)) }
            let name = segment.dropFirst()
            if name.hasSuffix("(int)") { return .parameter(String(name.dropLast(5)), isInteger: true) }
            return .parameter(String(name), isInteger: false)
        }
        precondition(
            parts.allSatisfy { part in
                if case .parameter(let name, _) = part { return !name.isEmpty && URLSafeName.allows(name) }
                return true
            }, "page route '\(pattern)': a parameter is :name or :name(int), the name letters, digits, - or _")
        precondition(
            parts.first != .literal("api") && parts.first != .literal(ClientFiles.prefix),
            "page route '\(pattern)': /api and /\(ClientFiles.prefix) are Bindery's")
        self.file = file
        self.viewModel = viewModel
    }

    /// The creation parameters `segments` give, or nil if this route is not theirs.
    func parameters(_ segments: [String]) -> [String: JSONValue]? {
        guard segments.count == parts.count else { return nil }
        var parameters = fixed
        for (part, segment) in zip(parts, segments) {
            switch part {
            case .literal(let word):
                guard segment == word else { return nil }
            case .parameter(let name, isInteger: true):
                guard let number = Int(segment), abs(number) < 1 << 53 else { return nil }
                parameters[name] = .number(Double(number))
            case .parameter(let name, isInteger: false):
                parameters[name] = .string(segment)
            }
        }
        return parameters
    }

    /// `html` with `parameters` on its root of `data-bindery="<viewModel>"`, in place of
    /// the `data-bindery-params` it had; nil if it has no such root.
    func render(_ html: Data, parameters: [String: JSONValue]) -> Data? {
        let nodes = HTMLTree.parse(String(decoding: html, as: UTF8.self))
        var root: HTMLElement?
        for case .element(let top) in nodes where root == nil {
            top.walk(entering: { $0.name != "template" && root == nil }) { element in
                if root == nil, element["data-bindery"] == viewModel { root = element }
            }
        }
        guard let root else { return nil }
        // Sorted keys: the same parameters, the same page (and ETag).
        let json = (try? JSONEncoder.bindery.encode(JSONValue.object(parameters))).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        // The file's own parameters go: the route's are the page's.
        root.set("data-bindery-params", json)
        return Data(HTMLTree.serialize(nodes).utf8)
    }
}
