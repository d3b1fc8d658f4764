import Bindery
import Dispatch
import Foundation

/// A Bindery app: your ViewModels, your pages and the browser client, served
/// until SIGINT or SIGTERM. Its whole `main.swift`:
///
/// ```swift
/// import BinderyServer
///
/// let app = BinderyApp()          // options from the command line and the environment
/// app.register("counter") { _ in CounterViewModel() }
/// try app.run()                   // serves; drains and returns on SIGINT/SIGTERM
/// ```
///
/// `BinderyApp()` reads `--port`, `PORT`, `--public-directory`, `--database`
/// and the limits (`--help` lists them: `ServeOptions`); a program that
/// configures itself passes a `ServerConfiguration` instead. Its sessions and
/// sign-ins are kept in its database (`database()`: a SQLite file, or a
/// cluster's PostgreSQL), so a restart or a deploy loses no page's state. Pages load the client from
/// `/_bindery/v1/bindery.js`, which every app serves.
public final class BinderyApp: ViewModelRegistry, Sendable {
    /// How the app serves.
    public let configuration: ServerConfiguration
    /// The runtime the ViewModels are registered with.
    public let application: Application
    /// The authentication given to `authenticate`, for the servers made after.
    private let authenticator = Locked<Authenticator?>(nil)
    /// The pages given to `page`, for the servers made after.
    private let pages = Locked<[PageRoute]>([])
    /// The inputs given to `upload`, for the servers made after.
    private let uploads = Locked<[UploadRule]>([])
    /// The page given to `signInPage`, for the servers made after.
    private let signInPath = Locked<String?>(nil)
    /// The database `database()` opened, once.
    let openedDatabase = Locked<AppDatabase?>(nil)
    /// What its pages are told about the app itself, in development (`--development`).
    let development: DevelopmentNotices?

    /// An app configured by `configuration` as given.
    public init(configuration: ServerConfiguration) {
        var configuration = configuration
        // In development, a ViewModel that fails shows in the pages too.
        let development = configuration.development ? DevelopmentNotices() : nil
        if let development { configuration.runtime.reportsProblems = { development.report($0) } }
        self.development = development
        self.configuration = configuration
        application = Application(
            configuration: configuration.runtime, wireFormat: ServerSentEvents.format,
            reservedNames: [APIRouter.multiplexedStreams: "/api/streams is the multiplexed event stream"],
            sessionURL: APIRouter.sessionURL)
    }

    /// An app configured by the command line and the environment over
    /// `defaults`. `--help` prints the options and `--version` which Bindery
    /// this is, and exits 0; `probe` asks the app running on this machine's
    /// port for `/healthz` and exits 0 if it answers 200 (a container's
    /// HEALTHCHECK: `Probe`); a bad option prints what is wrong and exits 64 (usage).
    public convenience init(
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        environment: [String: String] = ProcessInfo.processInfo.environment,
        defaults: ServerConfiguration = BinderyApp.defaultConfiguration,
        command: String = URL(fileURLWithPath: CommandLine.arguments.first ?? "app").lastPathComponent
    ) {
        if arguments.first == "probe" { exit(Probe.run(Array(arguments.dropFirst()), command: "\(command) probe")) }
        if arguments.first == "dev" { exit(DevLoop.run(Array(arguments.dropFirst()), command: command)) }
        do {
            var configuration = try ServeOptions.configuration(arguments: arguments, environment: environment, defaults: defaults)
            // Started by `dev`: its notices arrive on standard input.
            if configuration.development, environment[DevLoop.childVariable] == "1" { configuration.devLoopNotices = STDIN_FILENO }
            self.init(configuration: configuration)
        } catch {
            switch error {
            case .help:
                print(ServeOptions.help(command: command, defaults: defaults))
                print(
                    """

                    \(command) probe [--port <port>] [--path /readyz]
                      Exits 0 if this app, serving on this machine, answers 200 (a container's HEALTHCHECK).
                    \(command) dev [options]
                      In the folder of the app's Package.swift: serves it with --development, rebuilt and
                      restarted as its sources change; open pages keep their state and show build errors.
                    """)
                exit(0)
            case .version:
                print(BinderyVersion.line(command: command))
                exit(0)
            case .invalid(let message):
                FileHandle.standardError.write(Data("\(command): \(message)\n".utf8))
                exit(64)
            }
        }
    }

    /// The defaults of an app: those of `ServerConfiguration`, logging from
    /// `info` up to standard error as text (`--log-level`, `--log-format json`).
    public static var defaultConfiguration: ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.runtime.logger = LineLogHandler.logger()
        return configuration
    }

    /// What the ViewModels need from outside, handed to every factory
    /// (`context.services`). An app with a database registers it here
    /// (`BinderyDatabase`: `services.registerDatabase(path: configuration.databasePath)`).
    public var services: Services { application.services }

    /// Registers a ViewModel of `type` under `name` with the app's `application`
    /// (the `register` methods are `ViewModelRegistry`'s).
    public func register(
        _ name: String, type: Any.Type, shared: Bool, summary: String?, outputs: [String: OutputKind],
        makeAny make: @escaping @Sendable (ViewModelContext) throws -> Any
    ) {
        application.register(name, type: type, shared: shared, summary: summary, outputs: outputs, makeAny: make)
    }

    /// Serves `file` (from the public folder) at the paths `pattern` matches, its
    /// root of `data-bindery="<viewModel>"` given the path's parameters as its
    /// creation parameters: `app.page("/profile/:userID(int)", file: "profile.html", viewModel: "profile")`
    /// serves `/profile/3` with `{"userID": 3}`. A path whose parameter does not read
    /// as its type is not found. Call before `run`.
    ///
    /// `needsSignIn`: only a signed-in browser gets the page; another is sent to
    /// `signInPage` with `?next=` this page (or gets 401 without one). `allows`: only
    /// a signed-in browser whose identity it accepts (`{ $0.attributes["role"] == "admin" }`);
    /// another signed-in one gets 403 (the app's `403.html`, else Bindery's page).
    /// `parameters`: creation parameters of the route's own, under the path's
    /// (`app.page("/profile/:username/favorites", …, parameters: ["favorites": true])`).
    public func page(
        _ pattern: String, file: String, viewModel: String, parameters: [String: JSONValue] = [:], needsSignIn: Bool = false,
        allows: (@Sendable (Identity) -> Bool)? = nil
    ) {
        let route = PageRoute(pattern, file: file, viewModel: viewModel, parameters: parameters, needsSignIn: needsSignIn, allows: allows)
        pages.withLock { $0.append(route) }
    }

    /// The page a browser is sent to (with `?next=` the page it asked for) when it asks
    /// for a page that needs a signed-in browser without being one. Call before `run`.
    public func signInPage(_ path: String) {
        precondition(path.hasPrefix("/") && !path.hasPrefix("//"), "the sign-in page is a path of this site: \(path)")
        signInPath.withLock { $0 = path }
    }

    /// Lets `input` of `viewModel` (an `Observable<Upload>`, `Signal` or `Driver`) take a
    /// file sent as the body of its `POST`, with its own `Content-Type`: at most `maxBytes`
    /// (larger is 413, refused by its `Content-Length` before it is sent, or as it arrives),
    /// of `contentTypes` (`image/png`, `image/*`; empty: any; another is 415). The body goes
    /// to disk as it arrives; the ViewModel gets an `Upload`. Call before `run`.
    ///
    /// ```swift
    /// app.upload("photo", of: "avatar", maxBytes: 262_144, contentTypes: ["image/png", "image/jpeg"])
    /// ```
    public func upload(_ input: String, of viewModel: String, maxBytes: Int, contentTypes: [String] = []) {
        let rule = UploadRule(viewModel: viewModel, input: input, maxBytes: maxBytes, contentTypes: contentTypes)
        uploads.withLock { $0.append(rule) }
    }

    /// Authenticates every `/api` request with `authenticate` before it is
    /// routed: it returns who asks (or nil, someone anonymous) or throws
    /// `AuthenticationError` (401 or 403, as JSON). The identity reaches the
    /// ViewModel factory (`context.identity`) and binds the session: another
    /// identity, or an anonymous request, does not find it. Call before `run`.
    ///
    /// ```swift
    /// app.authenticate { request in
    ///     guard let token = request.header("Authorization") else { return nil }
    ///     guard let user = try await users.find(token: token) else { throw AuthenticationError.unauthenticated("unknown token") }
    ///     return Identity(user.id)
    /// }
    /// ```
    public func authenticate(_ authenticate: @escaping Authenticator) {
        authenticator.withLock { $0 = authenticate }
    }

    /// A server for the app, not yet started (tests, or a program that runs
    /// its own loop).
    public func makeServer() -> Server {
        var configuration = configuration
        if let authenticate = authenticator.withLock({ $0 }) { configuration.authenticate = authenticate }
        configuration.pages += pages.withLock { $0 }
        configuration.uploads += uploads.withLock { $0 }
        if configuration.signInPage == nil { configuration.signInPage = signInPath.withLock { $0 } }
        return Server(application: application, configuration: configuration, development: development)
    }

    /// Serves: prints `Bindery listening on http://…/` once accepting, runs until
    /// SIGINT or SIGTERM, then drains the server and returns, so that
    /// everything is released in order and the process can exit 0.
    public func run() throws {
        // One descriptor per connection: up to `maxConnections` of them.
        Self.raiseFileLimit()
        refuseMisshapenViewModels()
        // Sessions and sign-ins outlive the process, in the app's database.
        try database()
        let server = makeServer()
        // The main thread runs the main queue while the server serves: what
        // code outside any session schedules on `MainScheduler.instance` (a
        // service, a timer) runs, as in an iOS app. A signal ends the loop.
        nonisolated(unsafe) var stopRequested = false
        let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { stopRequested = true }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        try server.start()
        configuration.runtime.logger.info(
            "threads",
            metadata: [
                "cpus": "\(UsableCPUs.count)", "http_workers": "\(configuration.threads)",
                "executors": "\(configuration.runtime.executors.threads)", "executors_max": "\(configuration.runtime.executors.maxThreads)",
            ])
        // Written at once (not buffered), so scripts reading the output see the address.
        Self.say("Bindery listening on http://\(configuration.host):\(server.port)/")
        while !stopRequested { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
        Self.say("Bindery stopping…")
        server.stop()
    }

    /// A ViewModel that no create could serve stops the app before it listens,
    /// rather than failing every create with a 500: one line per problem, exit 70.
    private func refuseMisshapenViewModels() {
        let problems = shapeProblems()
        guard !problems.isEmpty else { return }
        for problem in problems { FileHandle.standardError.write(Data("\(problem)\n".utf8)) }
        exit(70)
    }

    /// The registered ViewModels that no create could serve, each with its port and type named.
    package func shapeProblems() -> [String] {
        let problems = Locked<[String]>([])
        let probed = DispatchSemaphore(value: 0)
        // At startup, before any request or session: the only wait this thread does.
        application.shapeProblems { found in
            problems.withLock { $0 = found }
            probed.signal()
        }
        probed.wait()
        return problems.withLock { $0 }
    }

    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Raises this process's open-file limit to its hard limit.
    static func raiseFileLimit() {
        var limit = rlimit()
        guard getrlimit(Platform.openFilesLimit, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Platform.openFilesLimit, &limit)
    }
}
