import Foundation

/// What a page is shown of the compiler's and a crashed process's words:
/// each problem with its file and line in the app's sources.
enum BuildOutput {
    /// The errors of `swift build`'s `output` (`/path/File.swift:12:5: error: …`),
    /// in the order printed and each once; with none of that form (a linker's
    /// error), its last lines as one problem.
    static func compileProblems(in output: String, sources: SourceLocator) -> [DevNotice.Problem] {
        var problems: [DevNotice.Problem] = []
        for line in output.split(separator: "\n") {
            guard let match = firstMatch(compileError, in: String(line)) else { continue }
            let (path, number, column, message) = (match[1], Int(match[2]) ?? 0, Int(match[3]), match[4])
            let problem =
                sources.file(named: path, line: number, column: column, message: message)
                ?? DevNotice.Problem(file: path, line: number, column: column, message: message)
            if !problems.contains(problem) { problems.append(problem) }
        }
        if problems.isEmpty { problems.append(DevNotice.Problem(message: tail(of: output, lines: 12))) }
        return problems
    }

    /// Why a process ended, from the end of what it wrote to standard error:
    /// Swift's `File.swift:27: Fatal error: …` (a `fatalError`, a `try!`, a
    /// `nil` unwrapped, a precondition), placed in the app's sources where it can
    /// be: the first frame of the backtrace that is in them, when the trap is in
    /// the standard library's own code (an index out of range).
    static func crashProblems(in log: String, sources: SourceLocator) -> [DevNotice.Problem] {
        let lines = log.split(separator: "\n").map(String.init)
        guard let trap = lines.lazy.compactMap({ firstMatch(fatalError, in: $0) }).first else {
            return [DevNotice.Problem(message: "the app stopped: \(tail(of: log, lines: 1))")]
        }
        let message = "\(trap[3]): \(trap[4])"
        if let place = sources.file(named: trap[1], line: Int(trap[2]) ?? 0, message: message) { return [place] }
        // A trap in the standard library: the backtrace's first frame in the app's own files.
        for line in lines {
            guard let frame = firstMatch(backtraceFrame, in: line),
                let place = sources.file(named: frame[1], line: Int(frame[2]) ?? 0, column: Int(frame[3]), message: message)
            else { continue }
            return [place]
        }
        return [DevNotice.Problem(file: trap[1], line: Int(trap[2]), message: message)]
    }

    /// The last `count` lines of `text` that are not blank.
    static func tail(of text: String, lines count: Int) -> String {
        text.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }.suffix(count).joined(separator: "\n")
    }

    /// `/path/to/File.swift:12:5: error: cannot find 'x' in scope`
    private static let compileError = try! NSRegularExpression(pattern: #"^(.+\.swift):(\d+):(\d+): error: (.*)$"#)
    /// `Counter/CounterViewModel.swift:27: Fatal error: boom`, Swift 5.9 on; older Swifts did not name the file first.
    private static let fatalError = try! NSRegularExpression(
        pattern: #"^(?:.*?\s)?(\S+\.swift):(\d+): (Fatal error|Precondition failed|Assertion failed)(?:: ?(.*))?$"#)
    /// A frame of Swift's backtrace: `… at /path/to/File.swift:27:13`.
    private static let backtraceFrame = try! NSRegularExpression(pattern: #" at (/\S+\.swift):(\d+):(\d+)"#)

    /// The groups of `pattern`'s first match in `text` (an empty string for one that did not take part).
    private static func firstMatch(_ pattern: NSRegularExpression, in text: String) -> [String]? {
        guard let match = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        return (0..<match.numberOfRanges).map { index in
            Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
        }
    }
}
