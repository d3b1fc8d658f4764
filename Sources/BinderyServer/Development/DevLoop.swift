import Bindery
import Dispatch
import Foundation
import Synchronization

/// `my-app dev [options]`: the app served in development and kept current as
/// you work, run in the folder of its `Package.swift`.
///
/// It builds the app (`swift build --product my-app`) and runs it with
/// `--development` and the options given, then looks at the sources every 300 ms:
/// - **A Swift source or `Package.swift` changed**: every open page shows
///   that a rebuild is under way. If the app builds, its process is stopped
///   (its sessions saved, as in a deploy) and the new build started: every
///   page reconnects to it and goes on with its state. If it does not, every
///   page shows the compiler's errors with their file and line, and the running
///   process goes on serving until the next change.
/// - **A file of the public folder changed**: pages swap a changed stylesheet
///   in place, or reload for anything else, keeping their sessions.
/// - **The process ended on its own** (a crash): it is started again and the
///   pages show where the last one trapped. One that ends within seconds of
///   starting, twice in a row, waits for the next change.
///
/// The pages hear all this from the process the loop runs: it writes a
/// `DevNotice` a line to its standard input (`DevelopmentNotices` reads
/// them). Ends on SIGINT or SIGTERM, stopping the app as `run` does.
package enum DevLoop {
    /// Set (to 1) in the environment of the process the loop runs: it reads the loop's notices from its standard input.
    static let childVariable = "BINDERY_DEV_LOOP"
    /// How often the files are looked at, in seconds.
    static let interval: TimeInterval = 0.3

    /// Runs the loop for the executable `command` (its product's name; `bindery serve` is `bindery`)
    /// with `arguments` for each process it starts; returns the exit status.
    package static func run(_ arguments: [String], command: String) -> Int32 {
        let product = String(command.split(separator: " ").first ?? "app")
        let folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) else {
            say("\(command) dev: run it in the folder of your app's Package.swift")
            return 66
        }
        let configuration: ServerConfiguration
        do {
            configuration = try ServeOptions.configuration(arguments: arguments, environment: ProcessInfo.processInfo.environment)
        } catch {
            say("\(command) dev: \(error)")
            return 64
        }
        guard configuration.port != 0 else {
            say("\(command) dev: give a port other than 0: every page reconnects to the same one after each restart")
            return 64
        }
        // A process gone is written to no more: a write to it fails rather than ending the loop.
        signal(SIGPIPE, SIG_IGN)
        let stopRequested = Atomic<Bool>(false)
        let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stopRequested.store(true, ordering: .relaxed) }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        let loop = Loop(
            product: product, folder: folder, publicFolder: configuration.publicDirectory,
            arguments: arguments.contains("--development") ? arguments : arguments + ["--development"])
        loop.run { stopRequested.load(ordering: .relaxed) }
        return 0
    }

    static func say(_ line: String) {
        FileHandle.standardError.write(Data("[dev] \(line)\n".utf8))
    }

    /// The loop's state: the process serving, the files as last seen.
    private final class Loop {
        let product: String
        let folder: URL
        let publicFolder: URL
        let arguments: [String]
        let sources: SourceLocator
        var app: AppProcess?
        /// How many processes in a row ended within seconds of starting.
        var quickEnds = 0

        init(product: String, folder: URL, publicFolder: URL, arguments: [String]) {
            self.product = product
            self.folder = folder
            self.publicFolder = publicFolder.standardizedFileURL
            self.arguments = arguments
            sources = SourceLocator(root: folder)
        }

        var swiftFiles: FileStamps {
            FileStamps([folder.appendingPathComponent("Sources"), folder.appendingPathComponent("Package.swift")], relativeTo: folder)
        }
        var publicFiles: FileStamps { FileStamps([publicFolder], relativeTo: publicFolder) }

        func run(until stopped: () -> Bool) {
            var (swift, assets) = (swiftFiles, publicFiles)
            if let failure = build() {
                // The last build, an earlier run's, serves with the errors over its pages; with none, the terminal alone shows them.
                if let binary, FileManager.default.isExecutableFile(atPath: binary.path) {
                    say("the last build serves until this one builds")
                    start(binary, telling: failure)
                } else {
                    say("fix it and save: the loop builds again")
                }
            } else {
                start()
            }
            while !stopped() {
                Thread.sleep(forTimeInterval: interval)
                if let app, !app.isRunning { ended(app) }
                // Editors save in steps: what changed is acted on once it has settled.
                var (nowSwift, nowAssets) = (swiftFiles, publicFiles)
                guard nowSwift != swift || nowAssets != assets else { continue }
                while true {
                    Thread.sleep(forTimeInterval: 0.15)
                    let (laterSwift, laterAssets) = (swiftFiles, publicFiles)
                    if laterSwift == nowSwift && laterAssets == nowAssets { break }
                    (nowSwift, nowAssets) = (laterSwift, laterAssets)
                }
                let changedAssets = nowAssets.changes(since: assets)
                let changedSwift = nowSwift.changes(since: swift)
                (swift, assets) = (nowSwift, nowAssets)
                if !changedSwift.isEmpty {
                    say("changed: \(changedSwift.joined(separator: ", ")): building")
                    quickEnds = 0
                    app?.tell(DevNotice(state: "building"))
                    if build() == nil { start() }
                } else if !changedAssets.isEmpty {
                    say("changed in the public folder: \(changedAssets.joined(separator: ", "))")
                    app?.tell(DevNotice(assets: changedAssets))
                }
            }
            app?.stop()
        }

        /// Builds the product; nil if it built, else the failure, told to the pages (and printed as it came).
        func build() -> DevNotice? {
            let (status, output) = Self.runToEnd(["swift", "build", "--product", product], in: folder)
            guard status != 0 else { return nil }
            let problems = BuildOutput.compileProblems(in: output, sources: sources)
            say("the build failed: \(problems.count) error\(problems.count == 1 ? "" : "s"); the pages show \(problems.count == 1 ? "it" : "them")")
            let failure = DevNotice(state: "failed", problems: problems, log: BuildOutput.tail(of: output, lines: 40))
            app?.tell(failure)
            return failure
        }

        /// Where the product's build is (a failed build leaves the last one there); nil if that cannot be told.
        var binary: URL? {
            let (status, output) = Self.runToEnd(["swift", "build", "--product", product, "--show-bin-path"], in: folder)
            guard status == 0 else {
                say("where the build is cannot be told: \(output)")
                return nil
            }
            return URL(fileURLWithPath: output.trimmingCharacters(in: .whitespacesAndNewlines)).appendingPathComponent(product)
        }

        /// Stops the process serving (its sessions are saved) and starts `binary` (the one just built), told `notice`.
        func start(_ binary: URL? = nil, telling notice: DevNotice? = nil) {
            app?.stop()
            app = nil
            guard let binary = binary ?? self.binary else { return }
            do {
                app = try AppProcess(binary: binary, arguments: arguments, in: folder)
                if let notice { app?.tell(notice) }
            } catch {
                say("\(binary.path) could not be started: \(error)")
            }
        }

        /// The process ended without being asked: started again, told why the last one ended.
        func ended(_ app: AppProcess) {
            self.app = nil
            let log = app.errorOutput()
            let crash = BuildOutput.crashProblems(in: log, sources: sources)
            say("the app ended (\(app.why)): \(crash.map(\.message).joined(separator: "; "))")
            quickEnds = app.age < .seconds(5) ? quickEnds + 1 : 0
            guard quickEnds < 2 else { return say("it ended twice as it started: the loop starts it again at the next change") }
            start(telling: DevNotice(state: "crashed", problems: crash, log: BuildOutput.tail(of: log, lines: 40)))
        }

        /// Runs `command` in `folder`, its output printed as it comes and returned whole, with its exit status.
        static func runToEnd(_ command: [String], in folder: URL) -> (Int32, String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = command
            process.currentDirectoryURL = folder
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            do { try process.run() } catch { return (127, "\(error)") }
            var output = Data()
            let quiet = command.contains("--show-bin-path")
            while let chunk = try? pipe.fileHandleForReading.read(upToCount: 65_536), !chunk.isEmpty {
                output += chunk
                if !quiet { FileHandle.standardError.write(chunk) }
            }
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: output, as: UTF8.self))
        }
    }

    /// One process of the app, started by the loop: its standard input takes
    /// the loop's notices; its standard error goes to the loop's, the end of it
    /// kept (what a crash printed).
    private final class AppProcess {
        let process = Process()
        let notices = Pipe()
        let errors = Pipe()
        let started = ContinuousClock.now
        /// The end of its standard error (at most 64 KiB), and whether it has closed.
        let errorTail = Locked<(bytes: [UInt8], closed: Bool)>(([], false))

        init(binary: URL, arguments: [String], in folder: URL) throws {
            process.executableURL = binary
            process.arguments = arguments
            process.currentDirectoryURL = folder
            process.environment = ProcessInfo.processInfo.environment.merging([childVariable: "1"]) { $1 }
            process.standardInput = notices
            process.standardError = errors
            try process.run()
            // One thread per process, reading its standard error until it closes.
            let handle = errors.fileHandleForReading
            let tail = errorTail
            Thread.detachNewThread {
                while let chunk = try? handle.read(upToCount: 65_536), !chunk.isEmpty {
                    FileHandle.standardError.write(chunk)
                    tail.withLock { state in
                        state.bytes += chunk
                        if state.bytes.count > 65_536 { state.bytes.removeFirst(state.bytes.count - 65_536) }
                    }
                }
                tail.withLock { $0.closed = true }
            }
        }

        var isRunning: Bool { process.isRunning }
        var age: Duration { ContinuousClock.now - started }
        var why: String {
            process.terminationReason == .uncaughtSignal ? "signal \(process.terminationStatus)" : "exit status \(process.terminationStatus)"
        }

        func tell(_ notice: DevNotice) {
            try? notices.fileHandleForWriting.write(contentsOf: notice.line + Data("\n".utf8))
        }

        /// What it wrote to standard error, to its end (waiting at most two seconds for the end).
        func errorOutput() -> String {
            let deadline = ContinuousClock.now + .seconds(2)
            while !errorTail.withLock({ $0.closed }), ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
            return String(decoding: errorTail.withLock { $0.bytes }, as: UTF8.self)
        }

        /// Stops it as a deploy does (SIGTERM: it saves its sessions), killed if it takes over 15 s.
        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            let deadline = ContinuousClock.now + .seconds(15)
            while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }
}
