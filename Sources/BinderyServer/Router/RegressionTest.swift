import Bindery
import Foundation

/// A session driven by hand, as a Swift test (development only): the
/// `ViewModelTestStore` test that makes its ViewModel, sends every input it
/// received with its payload, and receives every output it sent, in order.
/// A bug reproduced in a page becomes a failing test in one download
/// (`GET /api/<vm>/<sid>/test.swift`).
///
/// It makes the ViewModel with its type's `init()`: a ViewModel made with
/// services or creation parameters is made as the app's registration makes
/// it, in the one line the test marks. Time is not replayed: what a ViewModel
/// emitted on a timer arrives where it did, between inputs.
enum RegressionTest {
    static func swift(for transcript: SessionTranscript, viewModel name: String, session id: String) -> String {
        let parts = transcript.viewModelType.split(separator: ".")
        let module = parts.count > 1 ? String(parts[0]) : nil
        let type = parts.dropFirst(parts.count > 1 ? 1 : 0).joined(separator: ".")
        let className = Self.identifier(name).prefix(1).uppercased() + Self.identifier(name).dropFirst() + "Session" + Self.identifier(id).prefix(8) + "Tests"
        var lines = [
            "import BinderyTest",
            "import XCTest",
            "",
        ]
        if let module { lines += ["@testable import \(module)", ""] }
        lines += [
            "/// Session \(id) of \"\(name)\", replayed: every input it received, with its payload,",
            "/// and every output it sent, in order (downloaded from a development server).",
            "final class \(className): XCTestCase {",
            "    func testTheSessionAsItRan() throws {",
        ]
        if !transcript.parameters.isEmpty {
            lines.append("        // Its creation parameters were \(Self.literal(transcript.parameters)): make it with them as the app does.")
        }
        lines.append("        let store = try ViewModelTestStore { _ in \(type)() }")
        for entry in transcript.entries {
            switch entry {
            case .input(let input, let payload):
                lines.append(
                    payload.isEmpty || String(decoding: payload, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "null"
                        ? "        store.send(\(Self.literal(input)))" : "        store.send(\(Self.literal(input)), json: \(Self.literal(payload)))")
            case .output(let output, let json):
                lines.append("        store.receive(\(Self.literal(output)), json: \(Self.literal(json)))")
            }
        }
        if transcript.isTruncated { lines.append("        // The session went on; its transcript stops here (2,000 entries at most).") }
        lines += [
            "        store.finish()",
            "    }",
            "}",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// A Swift string literal of `text`, raw (`#"…"#`) with as many `#` as it needs.
    static func literal(_ text: String) -> String {
        var hashes = "#"
        while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
        let escaped = text.replacingOccurrences(of: "\r", with: "\\\(hashes)r").replacingOccurrences(of: "\n", with: "\\\(hashes)n")
        return hashes + "\"" + escaped + "\"" + hashes
    }

    private static func literal(_ data: Data) -> String { literal(String(decoding: data, as: UTF8.self)) }

    /// Letters and digits of `text`, for a type's name.
    private static func identifier(_ text: String) -> String {
        String(text.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII }.map(Character.init))
    }
}
