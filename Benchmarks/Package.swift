// swift-tools-version:6.0
// Bindery's benchmarks, a package of their own so that nothing an app links
// carries them: `bindery-bench`, the C floor (Floor) and the load client (Load).
// Build in release, beside the `bindery` it measures (see README.md):
//   swift build --package-path Benchmarks -c release -Xswiftc -cross-module-optimization
import PackageDescription

let package = Package(
    name: "BinderyBenchmarks",
    platforms: [.macOS(.v15)],
    products: [.executable(name: "bindery-bench", targets: ["BinderyBench"])],
    dependencies: [
        .package(name: "Bindery", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Depending on the `bindery` product builds it next to bindery-bench, which runs it.
        .executableTarget(
            name: "BinderyBench",
            dependencies: [
                .product(name: "Bindery", package: "Bindery"),
                .product(name: "BinderyServer", package: "Bindery"),
                .product(name: "ExampleApp", package: "Bindery"),
                .product(name: "BinderyLoopback", package: "Bindery"),
                .product(name: "bindery", package: "Bindery"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The floor links the system's libmicrohttpd (libmicrohttpd-dev, as the server); it and the load client use epoll: Linux only.
        .executableTarget(name: "BenchFloor", path: "Floor", linkerSettings: [.linkedLibrary("microhttpd")]),
        .executableTarget(name: "BenchLoad", path: "Load"),
    ],
    swiftLanguageModes: [.v6]
)
