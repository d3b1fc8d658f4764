import Foundation

/// Where things are declared in an app's own sources (development only): the
/// file and line a page shows beside a problem. It reads `Sources/` (then
/// `Tests/`) under the app's folder as it is now, each time (a problem is
/// rare; the sources change).
struct SourceLocator: Sendable {
    /// The app's folder: the one its `Package.swift` is in.
    let root: URL

    /// Where `member` of the type named `type` is declared (`let count`,
    /// `func bind`), else the type itself: `Counter.CounterViewModel` is found
    /// as `class CounterViewModel` (or a struct, an actor, an extension) in any file.
    func declaration(ofType type: String, member: String? = nil) -> DevNotice.Problem? {
        // `Module.Outer.Name<Generic>` is declared as `Name`.
        let name = type.split(separator: "<").first.map { $0.split(separator: ".").last.map(String.init) ?? "" } ?? ""
        guard !name.isEmpty else { return nil }
        let typeLine = Self.pattern("\\b(class|struct|actor|enum|extension)\\s+\(NSRegularExpression.escapedPattern(for: name))\\b")
        let memberLine = member.map { Self.pattern("\\b(let|var|func)\\s+\(NSRegularExpression.escapedPattern(for: $0))\\b") }
        var typeFound: DevNotice.Problem?
        for (path, lines) in swiftFiles() {
            guard let start = lines.firstIndex(where: { Self.matches(typeLine, $0) }) else { continue }
            if let memberLine, let index = lines[start...].firstIndex(where: { Self.matches(memberLine, $0) }) {
                return problem(path, lines, index)
            }
            typeFound = typeFound ?? problem(path, lines, start)
        }
        return typeFound
    }

    /// The file Swift names by its `#fileID` (`Counter/CounterViewModel.swift`:
    /// module, then name) or by its full path, relative to the app's folder, with
    /// the source at `line`; nil for a file outside the app (the standard library's).
    func file(named reference: String, line: Int, column: Int? = nil, message: String) -> DevNotice.Problem? {
        let files = swiftFiles()
        let rootPath = root.standardizedFileURL.path + "/"
        let found =
            reference.hasPrefix("/")
            ? files.first { root.appendingPathComponent($0.path).standardizedFileURL.path == URL(fileURLWithPath: reference).standardizedFileURL.path }
            : files.first { $0.path.hasSuffix("/" + reference) } ?? files.first { ($0.path as NSString).lastPathComponent == reference }
        guard let found else {
            // A path in the app's folder that is not a source of it (a generated file) is named as it is.
            guard reference.hasPrefix(rootPath) else { return nil }
            return DevNotice.Problem(file: String(reference.dropFirst(rootPath.count)), line: line, column: column, message: message)
        }
        var problem = problem(found.path, found.lines, line - 1)
        problem.column = column
        problem.message = message
        return problem
    }

    private func problem(_ path: String, _ lines: [Substring], _ index: Int) -> DevNotice.Problem {
        let source = lines.indices.contains(index) ? String(lines[index]) : nil
        return DevNotice.Problem(file: path, line: index + 1, message: "", source: source)
    }

    /// Every Swift file under `Sources/`, then under `Tests/`, by path relative to the app's folder, in lines.
    private func swiftFiles() -> [(path: String, lines: [Substring])] {
        let prefix = root.standardizedFileURL.path.count + 1
        return ["Sources", "Tests"].flatMap { folder -> [(path: String, lines: [Substring])] in
            guard let walker = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil) else { return [] }
            var files: [(path: String, lines: [Substring])] = []
            for case let url as URL in walker where url.pathExtension == "swift" {
                guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
                files.append((String(url.standardizedFileURL.path.dropFirst(prefix)), text.split(separator: "\n", omittingEmptySubsequences: false)))
            }
            return files.sorted { $0.path < $1.path }
        }
    }

    private static func pattern(_ text: String) -> NSRegularExpression {
        // The patterns are made of escaped names: they always compile.
        try! NSRegularExpression(pattern: text)
    }

    private static func matches(_ pattern: NSRegularExpression, _ line: Substring) -> Bool {
        let text = String(line)
        return pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
