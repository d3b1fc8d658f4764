import Bindery
import BinderyLoopback
import Foundation
import XCTest

@testable import BinderyServer

/// A development server's word about the app itself (`bindery.dev`): what the
/// dev loop writes to it, and ViewModels that fail as they run, on every
/// stream; and how the loop reads the compiler's and a crash's output. The
/// loop itself, on the starter app in Chromium, is `Tests/devloop`.
final class DevelopmentTests: XCTestCase {
    // MARK: The server

    func testTheLoopsNoticesReachEveryStreamAndTheStandingStateStartsEachNewOne() throws {
        var descriptors: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&descriptors), 0)
        let loop = FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true)
        let server = try TestServer {
            $0.development = true
            $0.devLoopNotices = descriptors[0]
        }
        let id = try server.createSession("simple")
        let open = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        XCTAssertEqual(try devNotices(open, count: 1), [#"{"state":"ok"}"#], "a stream starts with the state that stands")
        // A line in two writes is one notice; a line that is not one is skipped.
        loop.write(Data(#"{"state":"failed","problems":[{"file":"Sources/A.swift","#.utf8))
        loop.write(Data(#""line":3,"message":"no"}]}"#.utf8) + Data("\nnot json\n".utf8))
        let failed = #"{"problems":[{"file":"Sources/A.swift","line":3,"message":"no"}],"state":"failed"}"#
        XCTAssertEqual(try devNotices(open, count: 1), [failed])
        loop.write(Data(#"{"assets":["app.css"]}"#.utf8) + Data("\n".utf8))
        XCTAssertEqual(try devNotices(open, count: 1), [#"{"assets":["app.css"]}"#])
        // A stream opened now (a page that reconnected) starts with the failure: assets do not stand.
        let later = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        XCTAssertEqual(try devNotices(later, count: 1), [failed])
        loop.write(Data(#"{"state":"ok"}"#.utf8) + Data("\n".utf8))
        XCTAssertEqual(try devNotices(later, count: 1), [#"{"state":"ok"}"#])
        // The multiplexed stream too.
        let multiplexed = try SSEClient(port: server.port, path: "/api/streams?sessions=simple/\(id)")
        XCTAssertEqual(try devNotices(multiplexed, count: 1), [#"{"state":"ok"}"#])
    }

    func testAViewModelThatFailsIsShownWithWhereItsOutputIsDeclared() throws {
        let server = try TestServer {
            $0.development = true
        } register: {
            $0.register("failing") { _ in FailingViewModel() }
        }
        let id = try server.createSession("failing")
        let stream = try SSEClient(port: server.port, path: "/api/failing/\(id)/events")
        XCTAssertEqual(try devNotices(stream, count: 1), [#"{"state":"ok"}"#])
        XCTAssertEqual(try server.client.post("/api/failing/\(id)/inputs/fail").status, 200)
        let notice = try XCTUnwrap(try devNotices(stream, count: 1).first)
        let decoded = try JSONDecoder().decode(DevNotice.self, from: Data(notice.utf8))
        XCTAssertEqual(decoded.state, "threw")
        let problem = try XCTUnwrap(decoded.problems?.first)
        XCTAssertEqual(problem.file, "Tests/BinderyServerTests/DevelopmentTests.swift")
        XCTAssertEqual(problem.line, Self.line(of: "let checked: Observable<Int>"))
        XCTAssertEqual(problem.source?.trimmingCharacters(in: .whitespaces), "let checked: Observable<Int>")
        XCTAssertTrue(problem.message.hasPrefix("output checked of failing ended with an error: "), problem.message)
        XCTAssertTrue(problem.message.contains("FailingViewModel.Refusal.tooMany"), problem.message)
    }

    func testOutsideDevelopmentStreamsSayNothingOfTheApp() throws {
        let server = try TestServer()
        let id = try server.createSession("simple")
        let stream = try SSEClient(port: server.port, path: "/api/simple/\(id)/events")
        XCTAssertEqual(try stream.next(2).map(\.event), ["backgroundColor", "buttonTitle"])
    }

    // MARK: What the loop reads

    func testCompileErrorsArePlacedInTheAppsSources() throws {
        let app = try Self.app()
        // What `swift build` printed for a line added at the end of a file (Swift 6.3).
        let output = """
            Building for debugging...
            [3/5] Compiling Counter CounterViewModel.swift
            \(app.path)/Sources/Counter/CounterViewModel.swift:4:19: error: cannot convert value of type 'String' to specified type 'Int'
            2 |     public let count = 1
            3 | }
            4 | let broken: Int = "x"
              |                   `- error: cannot convert value of type 'String' to specified type 'Int'
            error: emit-module command failed with exit code 1 (use -v to see invocation)
            \(app.path)/Sources/Counter/CounterViewModel.swift:4:19: error: cannot convert value of type 'String' to specified type 'Int'
            """
        XCTAssertEqual(
            BuildOutput.compileProblems(in: output, sources: SourceLocator(root: app)),
            [
                DevNotice.Problem(
                    file: "Sources/Counter/CounterViewModel.swift", line: 4, column: 19,
                    message: "cannot convert value of type 'String' to specified type 'Int'", source: #"let broken: Int = "x""#)
            ])
        // A link error names no file: the end of the output is the problem.
        let linker = "Building for debugging...\nerror: link command failed with exit code 1\nundefined reference to `main'"
        XCTAssertEqual(
            BuildOutput.compileProblems(in: linker, sources: SourceLocator(root: app)).map(\.message),
            ["Building for debugging...\nerror: link command failed with exit code 1\nundefined reference to `main'"])
    }

    func testACrashIsPlacedWhereItTrapped() throws {
        let app = try Self.app()
        let sources = SourceLocator(root: app)
        // Swift names the file by its #fileID: module, then name.
        XCTAssertEqual(
            BuildOutput.crashProblems(in: "info served\nCounter/CounterViewModel.swift:2: Fatal error: a trap\n💣 Program crashed", sources: sources),
            [
                DevNotice.Problem(
                    file: "Sources/Counter/CounterViewModel.swift", line: 2, message: "Fatal error: a trap", source: "    public let count = 1")
            ])
        // A trap in the standard library: the backtrace's first frame in the app.
        let outOfRange = """
            Swift/ContiguousArrayBuffer.swift:691: Fatal error: Index out of range
            Thread 3 crashed:
            0 0x00005 _assertionFailure(_:_:file:line:flags:) + 264 in my-app
            1 0x00006 CounterViewModel.init() + 88 in my-app at \(app.path)/Sources/Counter/CounterViewModel.swift:3:7
            """
        XCTAssertEqual(
            BuildOutput.crashProblems(in: outOfRange, sources: sources),
            [
                DevNotice.Problem(
                    file: "Sources/Counter/CounterViewModel.swift", line: 3, column: 7, message: "Fatal error: Index out of range", source: "}")
            ])
        XCTAssertEqual(
            BuildOutput.crashProblems(in: "listening\nKilled", sources: sources), [DevNotice.Problem(message: "the app stopped: Killed")])
    }

    func testAMemberIsFoundInItsTypesDeclaration() throws {
        let sources = SourceLocator(root: try Self.app())
        let member = try XCTUnwrap(sources.declaration(ofType: "Counter.CounterViewModel", member: "count"))
        XCTAssertEqual([member.file, "\(member.line ?? 0)"], ["Sources/Counter/CounterViewModel.swift", "2"])
        XCTAssertEqual(sources.declaration(ofType: "CounterViewModel", member: "nothing")?.line, 1, "no such member: the type")
        XCTAssertNil(sources.declaration(ofType: "Elsewhere.Missing", member: "count"))
    }

    func testTheLoopSeesFilesAddedChangedAndRemoved() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stamps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("a".utf8).write(to: folder.appendingPathComponent("a.css"))
        try Data("b".utf8).write(to: folder.appendingPathComponent("b.html"))
        let before = FileStamps([folder], relativeTo: folder)
        XCTAssertEqual(FileStamps([folder], relativeTo: folder).changes(since: before), [])
        try Data("a, longer".utf8).write(to: folder.appendingPathComponent("a.css"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("b.html"))
        try Data("c".utf8).write(to: folder.appendingPathComponent("c.js"))
        XCTAssertEqual(FileStamps([folder], relativeTo: folder).changes(since: before), ["a.css", "b.html", "c.js"])
    }

    func testTheLoopRefusesWhatCannotWorkBeforeItBuilds() {
        // Run in this package's folder (swift test's): refused before any build starts.
        XCTAssertEqual(DevLoop.run(["--port", "0"], command: "bindery"), 64, "a new port at each restart loses every page")
        XCTAssertEqual(DevLoop.run(["--no-such-option"], command: "bindery"), 64)
    }

    // MARK: Helpers

    /// The next `count` `bindery.dev` events of `stream`, their data.
    private func devNotices(_ stream: SSEClient, count: Int) throws -> [String] {
        var found: [String] = []
        while found.count < count {
            guard let event = try stream.next(timeout: 10) else { break }
            if event.event == "bindery.dev" { found.append(event.data) }
        }
        return found
    }

    /// An app's folder with one source.
    private static func app() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dev-app-\(UUID().uuidString)")
        let sources = folder.appendingPathComponent("Sources/Counter")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try Data("public final class CounterViewModel {\n    public let count = 1\n}\nlet broken: Int = \"x\"\n".utf8)
            .write(to: sources.appendingPathComponent("CounterViewModel.swift"))
        return folder
    }

    /// The last line of this file that contains `text`.
    private static func line(of text: String) -> Int? {
        let source = (try? String(contentsOfFile: #filePath, encoding: .utf8)) ?? ""
        return source.split(separator: "\n", omittingEmptySubsequences: false).lastIndex { $0.contains(text) }.map { $0 + 1 }
    }
}

/// A ViewModel whose output ends with an error when told to.
final class FailingViewModel {
    enum Refusal: Error { case tooMany }
    let fail = PublishRelay<Void>()
    let checked: Observable<Int>

    init() {
        checked = fail.map { () throws -> Int in throw Refusal.tooMany }.startWith(0)
    }
}
