// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Bindery",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "BinderyRx", targets: ["BinderyRx"]),
        .library(name: "BinderyRxTest", targets: ["BinderyRxTest"]),
        .library(name: "BinderyRxBlocking", targets: ["BinderyRxBlocking"]),
        .library(name: "Bindery", targets: ["Bindery"]),
        .library(name: "BinderyReactorKit", targets: ["BinderyReactorKit"]),
        .library(name: "BinderyServer", targets: ["BinderyServer"]),
        .library(name: "BinderyNetworking", targets: ["BinderyNetworking"]),
        .library(name: "BinderyDatabase", targets: ["BinderyDatabase"]),
        .library(name: "BinderyAccounts", targets: ["BinderyAccounts"]),
        .library(name: "BinderyPostgres", targets: ["BinderyPostgres"]),
        .library(name: "BinderyTest", targets: ["BinderyTest"]),
        .executable(name: "bindery", targets: ["bindery"]),
        .executable(name: "conduit", targets: ["conduit"]),
        // Not for apps: products only because Benchmarks/, a package of its own, can link
        // nothing else of this one. ExampleApp is what it measures; BinderyLoopback is
        // what it and this package's server tests measure with.
        .library(name: "ExampleApp", targets: ["ExampleApp"]),
        .library(name: "BinderyLoopback", targets: ["BinderyLoopback"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/JohnSundell/Ink", from: "0.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        .systemLibrary(
            name: "CCompression",
            providers: [.apt(["zlib1g-dev", "libbrotli-dev"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // The reactive core keeps Swift 5's checking: RxSwift's API (closures and
        // schedulers that say nothing of Sendable) cannot be written under Swift 6's
        // without breaking the ViewModels and tests that port from RxSwift. Its
        // subjects and relays are Sendable: they may be called from any thread.
        .target(name: "BinderyRx", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "BinderyRxTest", dependencies: ["BinderyRx"], swiftSettings: [.swiftLanguageMode(.v5)]),
        // RxBlocking's `toBlocking()`: waiting for a sequence, for tests and tools only.
        .target(name: "BinderyRxBlocking", dependencies: ["BinderyRx"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "Bindery", dependencies: ["BinderyRx", .product(name: "Logging", package: "swift-log")]),
        // ReactorKit's `Reactor`, as its users write it: Swift 5's checking for the same
        // reason as the reactive core (its hooks and closures say nothing of Sendable).
        .target(name: "BinderyReactorKit", dependencies: ["BinderyRx", "Bindery"], swiftSettings: [.swiftLanguageMode(.v5)]),
        // RxCocoa's `URLSession.rx`, over FoundationNetworking on Linux (which links libcurl):
        // its own product, so an app that does not ask an HTTP API links none of it.
        .target(name: "BinderyNetworking", dependencies: ["Bindery"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "BinderyDatabase", dependencies: [
            "Bindery", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
        ]),
        // A cluster's shared database: sessions, changes by offset, LISTEN/NOTIFY, through libpq.
        // Accounts with passwords (Argon2id by libsodium), opt-in: an app without accounts links none of it.
        .target(name: "BinderyAccounts", dependencies: ["Bindery", "BinderyDatabase", "CSodium", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(name: "BinderyPostgres", dependencies: ["Bindery", "CLibPQ", .product(name: "Logging", package: "swift-log")]),
        .target(name: "BinderyServer", dependencies: [
            "Bindery", "BinderyRx", "BinderyDatabase", "BinderyPostgres", "CMicroHTTPD", "CSodium", "CCompression",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "CoreMetrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ], resources: [.copy("Client")]),
        // Loopback HTTP and SSE clients and process stats (glibc's heap figures, in C).
        .target(name: "CMallocStats"),
        // ...and a private PostgreSQL (script/postgres) for the tests that need one.
        .target(name: "BinderyLoopback", dependencies: ["CMallocStats", "BinderyPostgres"]),
        .target(name: "BinderyTest", dependencies: ["Bindery", "BinderyRxTest"]),
        .target(name: "Examples", dependencies: ["Bindery", "BinderyReactorKit", "BinderyAccounts"], resources: [.copy("Resources")]),
        .target(name: "Todo", dependencies: ["Bindery", "BinderyDatabase", "BinderyPostgres"]),
        // The examples and the todo list as one app: what `bindery` serves, the benchmarks measure and the tests start.
        .target(name: "ExampleApp", dependencies: ["BinderyServer", "BinderyAccounts", "BinderyDatabase", "BinderyPostgres", "Examples", "Todo"]),
        // Conduit (RealWorld's Medium clone) on Bindery's public API: its ViewModels and store, and its server.
        .target(name: "Conduit", dependencies: [
            "Bindery", "BinderyAccounts", "BinderyDatabase", "BinderyPostgres", .product(name: "Ink", package: "Ink"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .executableTarget(name: "conduit", dependencies: ["BinderyServer", "Conduit"], resources: [.copy("Public")]),
        // What ships: serve and probe, nothing else.
        .executableTarget(name: "bindery", dependencies: ["BinderyServer", "ExampleApp"]),
        .testTarget(name: "BinderyRxTests", dependencies: ["BinderyRx", "BinderyRxTest", "BinderyRxBlocking"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "BinderyReactorKitTests", dependencies: ["BinderyReactorKit", "BinderyRxTest", "Bindery", "BinderyDatabase"], swiftSettings: [.swiftLanguageMode(.v5)]),
        // Its PostgreSQL tests use a real server: script/test's (BINDERY_TEST_POSTGRES), or one script/postgres starts.
        .testTarget(name: "BinderyTests", dependencies: [
            "Bindery", "BinderyDatabase", "BinderyPostgres", "BinderyLoopback", "BinderyRxTest", .product(name: "Logging", package: "swift-log"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "BinderyServerTests", dependencies: [
            "bindery", "Bindery", "BinderyAccounts", "BinderyDatabase", "BinderyNetworking", "BinderyPostgres", "BinderyRxBlocking", "BinderyServer",
            "BinderyLoopback",
            "ExampleApp", "Examples", "Todo",
            .product(name: "Logging", package: "swift-log"), .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "ExamplesTests", dependencies: ["Examples", "BinderyRxTest", "BinderyTest"]),
        .testTarget(name: "ConduitTests", dependencies: [
            "Conduit", "BinderyAccounts", "BinderyLoopback", "BinderyPostgres", "BinderyTest", .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "TodoTests", dependencies: ["Todo", "BinderyDatabase", "BinderyRxTest", "BinderyTest"]),
    ],
    swiftLanguageModes: [.v6]
)
