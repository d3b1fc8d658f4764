import Foundation
import XCTest

/// The layers of docs/architecture.md, as the sources keep them: which module may
/// import which, and which files may call libmicrohttpd. A new import is a decision:
/// it goes in this table, and in the document, or it goes.
final class LayerTests: XCTestCase {
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// The system's and the toolchain's modules, which any module may import.
    private static let system: Set<String> = ["Dispatch", "Foundation", "FoundationNetworking", "Synchronization", "Glibc", "Darwin", "XCTest"]

    /// What each module may import besides the system's.
    private static let allowed: [String: Set<String>] = [
        "BinderyRx": [],
        "BinderyRxTest": ["BinderyRx"],
        "BinderyRxBlocking": ["BinderyRx"],
        "Bindery": ["BinderyRx", "Logging"],
        "BinderyNetworking": ["Bindery"],
        "BinderyReactorKit": ["BinderyRx", "Bindery"],
        "BinderyDatabase": ["Bindery", "GRDB", "Logging"],
        "BinderyPostgres": ["Bindery", "CLibPQ", "Logging"],
        "BinderyServer": [
            "Bindery", "BinderyDatabase", "BinderyPostgres", "BinderyRx", "CCompression", "CMicroHTTPD", "CSodium", "CoreMetrics", "Logging", "Prometheus",
        ],
        "BinderyTest": ["Bindery", "BinderyRxTest"],
        "BinderyLoopback": ["BinderyPostgres", "CMallocStats"],
        "Examples": ["Bindery", "BinderyReactorKit", "BinderyAccounts"],
        "BinderyAccounts": ["Bindery", "BinderyDatabase", "CSodium", "GRDB"],
        "Todo": ["Bindery", "BinderyDatabase", "BinderyPostgres"],
        "ExampleApp": ["BinderyServer", "BinderyAccounts", "BinderyDatabase", "BinderyPostgres", "Examples", "Todo"],
        "bindery": ["BinderyServer", "ExampleApp"],
        "Conduit": ["Bindery", "BinderyAccounts", "BinderyDatabase", "BinderyPostgres", "GRDB", "Ink", "Synchronization"],
        "conduit": ["BinderyPostgres", "BinderyServer", "Conduit"],
    ]

    /// The files of `module` (Swift only), by path relative to the module's folder.
    private func files(of module: String) throws -> [(path: String, text: String)] {
        let folder = Self.sources.appendingPathComponent(module)
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return try walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.map { url in
            (String(url.path.dropFirst(folder.path.count + 1)), try String(contentsOf: url, encoding: .utf8))
        }
    }

    func testEachModuleImportsOnlyWhatItsLayerMay() throws {
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter { name in
            (try? files(of: name).isEmpty == false) ?? false
        }
        XCTAssertEqual(Set(modules), Set(Self.allowed.keys), "every Swift module of Sources has its row in the table")
        let importLine = try NSRegularExpression(
            pattern: #"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*import\s+(?:[a-z]+\s+)?([A-Za-z_][A-Za-z0-9_]*)"#, options: .anchorsMatchLines)
        for module in modules {
            for (path, text) in try files(of: module) {
                for match in importLine.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    let imported = String(text[Range(match.range(at: 1), in: text)!])
                    XCTAssertTrue(
                        Self.system.contains(imported) || Self.allowed[module, default: []].contains(imported),
                        "\(module)/\(path) imports \(imported), which its layer may not")
                }
            }
        }
    }

    func testOnlyTheServersConnectionsAndStreamsCallLibmicrohttpd() throws {
        for module in Self.allowed.keys {
            for (path, text) in try files(of: module) where text.contains("MHD_") {
                let allowed = module == "BinderyServer" && (path.hasPrefix("Server/") || path == "Streaming/EventStream.swift")
                XCTAssertTrue(allowed, "\(module)/\(path) calls libmicrohttpd")
            }
        }
    }

    /// One object at a time owns a connection's sleep (`ConnectionSleep`, noncopyable):
    /// nothing else suspends or resumes a connection.
    func testOnlyAConnectionsSleepSuspendsOrResumesIt() throws {
        for module in Self.allowed.keys {
            for (path, text) in try files(of: module) where text.contains("MHD_suspend_connection") || text.contains("MHD_resume_connection") {
                XCTAssertEqual("\(module)/\(path)", "BinderyServer/Server/ConnectionSleep.swift", "suspends or resumes a connection itself")
            }
        }
    }
}
