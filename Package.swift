// swift-tools-version: 6.0
// FloorKit: a host that loads floor plugins at run time and renders CMS pages with them.
// Dependencies stay minimal on purpose: an out-of-tree plugin package resolves every dependency of this
// package, so only the CLI's argument parser and the host's hash (swift-crypto) are here. Benchmarks live in Benchmarks/Package.swift.
import PackageDescription

/// The floor plugins we ship: each folder under Plugins/ becomes one dynamic library, lib<Name>Floor.so.
let shippedFloors = ["Focus", "IconGrid", "ProductFeed", "Title"]

let package = Package(
    name: "FloorKit",
    products: [
        .library(name: "FloorKit", targets: ["FloorKit"]),
        .library(name: "FloorHost", targets: ["FloorHost"]),
        .executable(name: "floorhost", targets: ["floorhost"]),
    ] + shippedFloors.map { .library(name: "\($0)Floor", type: .dynamic, targets: ["\($0)Floor"]) },
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // SHA-256 of plugin libraries (plugins.lock, the scan cache); the host only, never the FloorKit SDK.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        .target(name: "CFloorABI"),
        .systemLibrary(name: "CFFI", providers: [.apt(["libffi-dev"])]),
        // glibc functions Swift's Glibc module leaves out (mallinfo2, pipe2), for child processes and conform.
        .systemLibrary(name: "CGlibcExtras"),
        .target(name: "FloorKit", dependencies: ["CFloorABI"]),
        .target(name: "FloorHost", dependencies: [
            "CFloorABI", "CFFI", "CGlibcExtras", .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .executableTarget(name: "floorhost", dependencies: [
            "FloorHost",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "FloorHostTests", dependencies: ["FloorHost", "CFloorABI"]),
    ] + shippedFloors.map { .target(name: "\($0)Floor", dependencies: ["FloorKit"], path: "Plugins/\($0)") }
)
