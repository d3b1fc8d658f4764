// swift-tools-version:6.2
// The Hummingbird peer of `bindery-bench compare`'s inputs scenario (issue 24): an
// idiomatic Hummingbird 2 server, framework defaults, that runs the `simple`
// ViewModel's Rx graph behind the same routes as Bindery. A package of its own,
// beside the benchmarks, because SwiftNIO under Hummingbird adds minutes to a
// clean build: nothing else builds it, CI included. Build it in release:
//   swift build --package-path Benchmarks/HummingbirdPeer -c release
import PackageDescription

let package = Package(
    name: "HummingbirdPeer",
    platforms: [.macOS(.v15)],
    products: [.executable(name: "hummingbird-peer", targets: ["HummingbirdPeer"])],
    dependencies: [
        .package(name: "Bindery", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(
            name: "HummingbirdPeer",
            dependencies: [
                .product(name: "BinderyRx", package: "Bindery"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
