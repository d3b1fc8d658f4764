// swift-tools-version:6.0
// A Bindery app: one ViewModel (Sources/Counter), the server that runs it
// (Sources/App), its page (Public/) and its test (Tests/).
import PackageDescription

let package = Package(
    name: "MyApp",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Your Bindery checkout; `script/new-app` writes its path here.
        .package(name: "Bindery", path: "../bindery"),
    ],
    targets: [
        .target(name: "Counter", dependencies: [.product(name: "Bindery", package: "Bindery")]),
        .executableTarget(name: "my-app", dependencies: ["Counter", .product(name: "BinderyServer", package: "Bindery")], path: "Sources/App"),
        .testTarget(name: "CounterTests", dependencies: ["Counter", .product(name: "BinderyTest", package: "Bindery")]),
    ]
)
