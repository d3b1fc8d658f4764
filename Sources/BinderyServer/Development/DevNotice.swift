import Foundation

/// One word about the app itself, from the dev loop (`my-app dev`) or a
/// development server to its pages: a `bindery.dev` event's data, and a line
/// of what the loop writes to the process it runs.
///
/// - `state`: `building` (a rebuild is under way), `failed` (it did not
///   build), `crashed` (the last process ended on a trap), `threw` (a
///   ViewModel failed as it ran), `ok` (none of these any more). A state stays
///   until the next, and every stream opened meanwhile starts with it.
/// - `assets`: files of the public folder that changed (paths within it):
///   a page swaps its stylesheets, or reloads.
struct DevNotice: Codable, Sendable, Equatable {
    var state: String?
    var problems: [Problem]?
    /// The end of the build's or the crashed process's output, as it was printed.
    var log: String?
    var assets: [String]?

    /// One thing wrong, where the sources say.
    struct Problem: Codable, Sendable, Equatable {
        /// The file, relative to the app's folder (`Sources/Counter/CounterViewModel.swift`).
        var file: String?
        var line: Int?
        var column: Int?
        var message: String
        /// The line of source at `line`, as written.
        var source: String?
    }

    /// The notice as one line of compact JSON (no line breaks: JSON escapes them).
    var line: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }
}
