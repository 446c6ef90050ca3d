// swift-tools-version: 6.0
// The FloorKit SDK, all a floor plugin builds against: the C contract (CFloorABI, include/floor_abi.h), the
// Swift SDK (FloorKit), and the test kit a plugin's own `swift test` uses (FloorKitTesting, on the rules of
// HostContract, which floorhost shares). A package of its own with no dependencies, so that a plugin
// package (Scripts/new-floor scaffolds one, depending on this folder by path) resolves and builds nothing
// but these targets: the host's dependencies (argument parser, crypto, the `serve` front end's Hummingbird
// and SwiftNIO) cost it nothing. BENCHMARKS.md, "A new floor's first build", has the figures.
import PackageDescription

let package = Package(
    name: "FloorKitSDK",
    products: [
        .library(name: "FloorKit", targets: ["FloorKit"]),
        // A plugin's tests: its floors through the ABI in-process, as floorhost calls them.
        .library(name: "FloorKitTesting", targets: ["FloorKitTesting"]),
        // The host links the C contract and the rules it shares with the test kit directly.
        .library(name: "CFloorABI", targets: ["CFloorABI"]),
        .library(name: "HostContract", targets: ["HostContract"]),
        .library(name: "FloorText", targets: ["FloorText"]),
    ],
    targets: [
        .target(name: "CFloorABI"),
        // One UTF-8 check for FloorKit's texts and FloorText's layouts (no dependency: Embedded Swift builds it).
        .target(name: "UTF8Validation"),
        // Lines in terminal cells, the one implementation of ABI 1.4's cell rules (no dependency).
        .target(name: "CellLineBreaks"),
        .target(name: "FloorKit", dependencies: ["CFloorABI", "UTF8Validation", "CellLineBreaks"]),
        // The text engine (docs/ABI.md, "Text layout"): HarfBuzz shaping on the font files of the pinned Noto
        // set (Fonts.lock), lines broken by ICU. The host and the test kit link it; FloorKit, what plugins
        // link, never does: a plugin measures through the host table.
        .systemLibrary(
            name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev", "libfreetype-dev"])]),
        .systemLibrary(name: "CICU", pkgConfig: "icu-uc", providers: [.apt(["libicu-dev"])]),
        .target(name: "CLineBreak", dependencies: ["CICU"], linkerSettings: [.linkedLibrary("icuuc")]),
        .target(name: "FloorText", dependencies: ["CHarfBuzz", "CLineBreak", "UTF8Validation"]),
        // What every host does the same way toward plugins: text widths and layout, the recording canvas
        // and its text.
        .target(name: "HostContract", dependencies: ["CFloorABI", "FloorText", "CellLineBreaks"]),
        .target(name: "FloorKitTesting", dependencies: ["CFloorABI", "HostContract"]),
        // The SDK's own tests (Scripts/test runs them before the root package's): nothing but these targets,
        // no plugin library, no floorhost. What needs the host stays in the root's Tests/FloorHostTests.
        .testTarget(name: "HostContractTests", dependencies: ["CFloorABI", "HostContract", "CellLineBreaks"]),
        .testTarget(name: "FloorKitTests", dependencies: ["FloorKit", "UTF8Validation"]),
        .testTarget(name: "FloorTextTests", dependencies: ["FloorText", "UTF8Validation", "CHarfBuzz"]),
        // The test kit on floor plugins written in the test target itself (SampleFloors.swift).
        .testTarget(name: "FloorKitTestingTests", dependencies: ["FloorKit", "FloorKitTesting", "HostContract"]),
    ]
)
