// swift-tools-version:6.0
// A Bindery app: one ViewModel (Sources/Counter), the server that runs it
// (Sources/App), its page (Public/) and its test (Tests/).
import PackageDescription

// Swift 5's language mode, as RxSwift's own code and the iOS code ported here
// are written: `static let shared = Service()`, services captured by the
// register closures and observers that say nothing of Sendable compile as
// they are. Swift 6's strict checking refuses them. Drop these settings from a
// target once its code is written for Swift 6 (Bindery itself is).
let rxSwiftCode: [SwiftSetting] = [.swiftLanguageMode(.v5)]

let package = Package(
    name: "MyApp",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Bindery, by URL and version (or a checkout's path): `script/new-app` writes it here.
        .package(name: "Bindery", path: "../bindery"),
    ],
    targets: [
        .target(name: "Counter", dependencies: [.product(name: "Bindery", package: "Bindery")], swiftSettings: rxSwiftCode),
        .executableTarget(
            name: "my-app", dependencies: ["Counter", .product(name: "BinderyServer", package: "Bindery")], path: "Sources/App",
            swiftSettings: rxSwiftCode),
        .testTarget(name: "CounterTests", dependencies: ["Counter", .product(name: "BinderyTest", package: "Bindery")], swiftSettings: rxSwiftCode),
    ]
)
