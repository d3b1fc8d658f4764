import BinderyLoopback
import XCTest

@testable import BinderyServer

/// One table gives the command line, the environment and `--help`.
final class ServeOptionsTests: XCTestCase {
    private func configuration(_ arguments: [String], _ environment: [String: String] = [:]) throws -> ServerConfiguration {
        try ServeOptions.configuration(arguments: arguments, environment: environment)
    }

    private func problem(_ arguments: [String], _ environment: [String: String] = [:]) -> String? {
        do {
            _ = try ServeOptions.configuration(arguments: arguments, environment: environment)
            return nil
        } catch {
            if case .invalid(let message) = error { return message }
            return "\(error)"
        }
    }

    func testTheCommandLineWinsOverBinderyVariablesWhichWinOverPORT() throws {
        XCTAssertEqual(try configuration([]).port, 8080)
        XCTAssertEqual(try configuration([], ["PORT": "9000"]).port, 9000)
        XCTAssertEqual(try configuration([], ["PORT": "9000", "BINDERY_PORT": "9001"]).port, 9001)
        XCTAssertEqual(try configuration(["--port", "9002"], ["PORT": "9000", "BINDERY_PORT": "9001"]).port, 9002)
        XCTAssertEqual(try configuration(["--port=9003"]).port, 9003)
        XCTAssertEqual(try configuration([], ["PORT": ""]).port, 8080, "an empty variable is unset")
    }

    func testEveryLimitHasAnOptionAndAVariable() throws {
        let environment = [
            "BINDERY_MAX_SESSIONS": "7", "BINDERY_MAX_STREAMS": "8", "BINDERY_MAX_STREAMS_PER_SESSION": "9",
            "BINDERY_MAX_CONNECTIONS": "10", "BINDERY_MAX_BODY": "11", "BINDERY_THREADS": "3",
            "BINDERY_HEARTBEAT": "5", "BINDERY_SESSION_IDLE": "60", "BINDERY_CONNECTION_MEMORY": "8192",
            "BINDERY_SHUTDOWN_GRACE": "4", "BINDERY_PUBLIC_DIRECTORY": "/srv/pages", "BINDERY_HOST": "0.0.0.0",
            "BINDERY_SHARED_LEASE": "6", "BINDERY_SHARED_ANSWER_TIMEOUT": "12", "BINDERY_HELD_ANSWER_TIMEOUT": "45",
        ]
        let configured = try configuration([], environment)
        XCTAssertEqual(configured.runtime.maxSessions, 7)
        XCTAssertEqual(configured.maxStreams, 8)
        XCTAssertEqual(configured.runtime.maxStreamsPerSession, 9)
        XCTAssertEqual(configured.maxConnections, 10)
        XCTAssertEqual(configured.maxBodyBytes, 11)
        XCTAssertEqual(configured.threads, 3)
        XCTAssertEqual(configured.heartbeat, .seconds(5))
        XCTAssertEqual(configured.runtime.sessionIdleTimeout, .seconds(60))
        XCTAssertEqual(configured.connectionMemoryBytes, 8192)
        XCTAssertEqual(configured.shutdownGrace, .seconds(4))
        XCTAssertEqual(configured.publicDirectory.path, "/srv/pages")
        XCTAssertEqual(configured.host, "0.0.0.0")
        XCTAssertEqual(configured.runtime.sharedSessionLease, .seconds(6))
        XCTAssertEqual(configured.runtime.sharedSessionAnswerTimeout, .seconds(12))
        XCTAssertEqual(configured.runtime.heldAnswerTimeout, .seconds(45))
        // Each variable has its option, and the help names both.
        let help = ServeOptions.help(command: "app")
        for option in ServeOptions.all {
            XCTAssertTrue(help.contains("--\(option.name)"), option.name)
            for variable in option.environment { XCTAssertTrue(help.contains(variable), variable) }
        }
        for variable in environment.keys {
            XCTAssertTrue(ServeOptions.all.contains { $0.environment.contains(variable) }, variable)
        }
    }

    func testFlagsTakeNoValueOnTheCommandLineAndABooleanInTheEnvironment() throws {
        XCTAssertEqual(try configuration([]).host, "127.0.0.1")
        XCTAssertEqual(try configuration(["--all-interfaces"]).host, "0.0.0.0")
        XCTAssertEqual(try configuration([], ["BINDERY_ALL_INTERFACES": "true"]).host, "0.0.0.0")
        XCTAssertEqual(try configuration([], ["BINDERY_ALL_INTERFACES": "0"]).host, "127.0.0.1")
        XCTAssertEqual(problem([], ["BINDERY_ALL_INTERFACES": "maybe"]), "BINDERY_ALL_INTERFACES: expected true or false, got 'maybe'")
    }

    func testBadInputIsAUsageErrorNamingWhereItCameFrom() {
        XCTAssertEqual(problem(["--port", "http"]), "--port: expected a whole number, got 'http'")
        XCTAssertEqual(problem([], ["PORT": "70000"]), "PORT: 70000 is out of range 0…65535")
        XCTAssertEqual(problem(["--threads", "0"]), "--threads: 0 is out of range 1…1024")
        XCTAssertEqual(problem(["--shared-answer-timeout", "0"]), "--shared-answer-timeout: 0 is out of range 1…600")
        XCTAssertEqual(problem(["--held-answer-timeout", "0"]), "--held-answer-timeout: 0 is out of range 1…600")
        XCTAssertEqual(problem(["--held-answer-timeout", "601"]), "--held-answer-timeout: 601 is out of range 1…600")
        XCTAssertEqual(problem(["--input-keys-per-session", "0"]), "--input-keys-per-session: 0 is out of range 1…100000")
        XCTAssertEqual(problem(["--input-keys-per-session", "100001"]), "--input-keys-per-session: 100001 is out of range 1…100000")
        XCTAssertEqual(problem(["--shared-lease", "601"]), "--shared-lease: 601 is out of range 2…600")
        XCTAssertEqual(problem(["--host", "localhost"]), "--host: expected an IPv4 address such as 127.0.0.1, got 'localhost'")
        XCTAssertEqual(problem(["--port"]), "--port needs a value <port>")
        XCTAssertEqual(problem(["--colour"]), "unknown option '--colour' (see --help)")
        XCTAssertEqual(problem(["8080"]), "unexpected argument '8080' (see --help)")
        XCTAssertEqual(problem(["--help"]), "help")
        XCTAssertEqual(problem(["--port", "1", "-h"]), "help")
        XCTAssertEqual(problem(["--version"]), "version")
    }

    func testLoggingAndMetricsOptions() throws {
        XCTAssertEqual(try configuration(["--log-level", "debug"]).runtime.logger.logLevel, .debug)
        XCTAssertEqual(try configuration([], ["BINDERY_LOG_LEVEL": "warning"]).runtime.logger.logLevel, .warning)
        // The format keeps the level, whichever order they come in.
        XCTAssertEqual(try configuration(["--log-level", "error", "--log-format", "json"]).runtime.logger.logLevel, .error)
        XCTAssertEqual(problem(["--log-format", "xml"]), "--log-format: expected text or json, got 'xml'")
        XCTAssertEqual(problem(["--log-level", "loud"]), "--log-level: expected one of trace, debug, info, notice, warning, error, critical, got 'loud'")
        XCTAssertTrue(try configuration([]).metrics)
        XCTAssertFalse(try configuration(["--no-metrics"]).metrics)
        XCTAssertFalse(try configuration([], ["BINDERY_NO_METRICS": "1"]).metrics)
    }

    /// Runs the `bindery` executable with `arguments`: its exit status and what it printed.
    private func bindery(_ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = ServerProcess.binderyExecutable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// The documents' option tables (`docs/protocol.md`'s limits, `docs/operations.md`'s
    /// options) name every option there is, and none that is not.
    func testTheDocumentsNameEveryOption() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs")
        let options = Set(ServeOptions.all.map(\.name))
        for (file, from, to) in [("protocol.md", "## Options and limits", "Fixed in code"), ("operations.md", "| Option | Environment |", "\n\n")] {
            let text = try String(contentsOf: docs.appendingPathComponent(file), encoding: .utf8)
            let start = try XCTUnwrap(text.range(of: from), file)
            let end = text.range(of: to, range: start.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
            let rows = text[start.lowerBound..<end].split(separator: "\n").filter { $0.hasPrefix("| `--") }
            let named = Set(rows.flatMap { row in row.split(separator: "|")[0..<1].flatMap { $0.matches(of: /`--([a-z-]+)/).map { String($0.1) } } })
            XCTAssertEqual(options.subtracting(named).sorted(), [], "options \(file)'s table leaves out")
            XCTAssertEqual(named.subtracting(options).subtracting(["help", "version"]).sorted(), [], "options \(file)'s table names that are not")
        }
    }

    func testADurationIsReadAndShownInItsOwnUnitAtItsEdges() throws {
        func shown(_ name: String, _ configuration: ServerConfiguration) -> String? {
            ServeOptions.all.first { $0.name == name }?.current(configuration)
        }
        let configured = try configuration(["--session-save-interval", "250", "--first-paint-wait", "0", "--header-timeout", "3600"])
        XCTAssertEqual(configured.runtime.sessionSaveInterval, .milliseconds(250))
        XCTAssertEqual(shown("session-save-interval", configured), "250")
        XCTAssertEqual(configured.firstPaintWait, .zero)
        XCTAssertEqual(shown("first-paint-wait", configured), "0")
        XCTAssertEqual(configured.headerTimeout, .seconds(3_600))
        XCTAssertEqual(shown("header-timeout", configured), "3600")
        XCTAssertThrowsError(try configuration(["--header-timeout", "3601"]))
        XCTAssertThrowsError(try configuration(["--session-save-interval", "9"]))
        XCTAssertThrowsError(try configuration(["--sign-in-idle", "59"]))
        XCTAssertEqual(shown("sign-in-idle", try configuration(["--sign-in-idle", "60"])), "60")
    }

    func testBinderysHelpShowsTheDefaultsItServesWith() throws {
        // `bindery --help` and `bindery serve --help` print one table with one set of defaults.
        for arguments in [["--help"], ["serve", "--help"]] {
            let (_, text) = try bindery(arguments)
            let logLevel = text.components(separatedBy: "\n").drop { !$0.contains("--log-level") }.dropFirst().first ?? ""
            XCTAssertTrue(logLevel.contains("(default: info)"), "\(arguments): \(logLevel)")
        }
    }

    func testBinderySaysWhichBinderyItIs() throws {
        for arguments in [["--version"], ["serve", "--version"]] {
            let (status, text) = try bindery(arguments)
            XCTAssertEqual(status, 0, "\(arguments)")
            XCTAssertTrue(text.hasPrefix("bindery"), text)
            XCTAssertTrue(text.hasSuffix("(Bindery \(BinderyVersion.number), protocol v1)\n"), "\(arguments): \(text)")
        }
        XCTAssertTrue(ServeOptions.help(command: "app").contains("--version"))
    }

    func testAnAppServesItsOwnViewModelAndTheClient() throws {
        var configuration = try ServeOptions.configuration(arguments: ["--port", "0"])
        configuration.publicDirectory = FileManager.default.temporaryDirectory
        let app = BinderyApp(configuration: configuration)
        app.register("greeter") { _ in Greeter() }
        let server = app.makeServer()
        try server.start()
        defer { server.stop() }
        let client = HTTPClient(port: server.port)
        let created = try client.post("/api/greeter")
        XCTAssertEqual(created.status, 201, created.text)
        let id = try XCTUnwrap(created.json()["id"] as? String)
        let answered = try client.post("/api/greeter/\(id)/inputs/name", json: #""Ada""#)
        XCTAssertEqual((try answered.json()["outputs"] as? [String: Any])?["greeting"] as? String, "Hello, Ada!", answered.text)
        XCTAssertEqual(try client.get("/_bindery/v1/bindery.js").status, 200)
    }
}

/// The smallest ViewModel a user writes.
final class Greeter {
    let name = PublishRelay<String>()
    let greeting: Driver<String>
    init() { greeting = name.map { "Hello, \($0)!" }.asDriver(onErrorJustReturn: "") }
}
