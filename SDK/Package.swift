// swift-tools-version: 6.0
// The FloorKit SDK, all a floor plugin builds against: the C contract (CFloorABI, include/floor_abi.h) and
// the Swift SDK (FloorKit). A package of its own with no dependencies, so that a plugin package (Scripts/
// new-floor scaffolds one, depending on this folder by path) resolves and builds nothing but these two
// targets: the host's dependencies (argument parser, crypto, the `serve` front end's Hummingbird and
// SwiftNIO) cost it nothing. BENCHMARKS.md, "A new floor's first build", has the figures.
import PackageDescription

let package = Package(
    name: "FloorKitSDK",
    products: [
        .library(name: "FloorKit", targets: ["FloorKit"]),
        // The host links the C contract directly.
        .library(name: "CFloorABI", targets: ["CFloorABI"]),
    ],
    targets: [
        .target(name: "CFloorABI"),
        .target(name: "FloorKit", dependencies: ["CFloorABI"]),
    ]
)
