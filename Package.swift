// swift-tools-version: 6.0
// FloorKit: a host that loads floor plugins at run time and renders CMS pages with them.
// Plugin packages depend on SDK/ (CFloorABI + FloorKit, no dependencies), never on this package: a package
// resolves every dependency of the packages it depends on, and this one has the host's (argument parser,
// crypto, Hummingbird for `serve`). Benchmarks live in Benchmarks/Package.swift, fuzzers in Fuzzing/.
import PackageDescription

/// The floor plugins we ship: each folder under Plugins/ becomes one dynamic library, lib<Name>Floor.so.
let shippedFloors = ["Focus", "IconGrid", "ProductFeed", "Title"]

let package = Package(
    name: "FloorKit",
    products: [
        .library(name: "FloorHost", targets: ["FloorHost"]),
        .executable(name: "floorhost", targets: ["floorhost"]),
    ] + shippedFloors.map { .library(name: "\($0)Floor", type: .dynamic, targets: ["\($0)Floor"]) },
    dependencies: [
        // The SDK plugins build against (its own package, so that they resolve nothing else).
        .package(path: "SDK"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // SHA-256 of plugin libraries (plugins.lock, the scan cache); the host only, never the FloorKit SDK.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // `floorhost serve` only (the FloorServe target).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // Pages over http(s) (PageSource's remote pages); the host only, never the FloorKit SDK.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Trusting a private CA for https pages (--ca-file); already async-http-client's, named here to use it.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        .systemLibrary(name: "CFFI", providers: [.apt(["libffi-dev"])]),
        // glibc functions Swift's Glibc module leaves out (mallinfo2, pipe2), for child processes and conform.
        .systemLibrary(name: "CGlibcExtras"),
        .target(name: "FloorHost", dependencies: [
            .product(name: "CFloorABI", package: "SDK"), .product(name: "HostContract", package: "SDK"), "CFFI", "CGlibcExtras", .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        // The browser preview front end: `floorhost serve`.
        .target(name: "FloorServe", dependencies: [
            "FloorHost", .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .executableTarget(name: "floorhost", dependencies: [
            "FloorHost", "FloorServe",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "FloorHostTests", dependencies: [
            "FloorHost", .product(name: "CFloorABI", package: "SDK"), .product(name: "HostContract", package: "SDK"),
            // The test kit's own tests: ProductFeed linked in, as a plugin package's tests link their plugin.
            .product(name: "FloorKitTesting", package: "SDK"), "ProductFeedFloor",
        ]),
        .testTarget(name: "FloorServeTests", dependencies: [
            "FloorServe", "FloorHost", .product(name: "HummingbirdTesting", package: "hummingbird"),
        ]),
    ] + shippedFloors.map { .target(name: "\($0)Floor", dependencies: [.product(name: "FloorKit", package: "SDK")], path: "Plugins/\($0)") }
)
