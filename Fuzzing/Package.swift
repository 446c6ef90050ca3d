// swift-tools-version: 6.1
// FloorKit's coverage-guided fuzzers (libFuzzer), in their own package so that the main package's dependency
// list stays lean (an out-of-tree plugin package resolves every dependency of the package it depends on).
// Build and run them with Scripts/fuzz, which builds with `--sanitize fuzzer --sanitize address` and
// `-enable-testing` (the scanner and the tape are internal to their modules); see BENCHMARKS.md, "Fuzzing".
//
// Each executable is a libFuzzer binary: its entry is `LLVMFuzzerTestOneInput`, and libFuzzer provides `main`.
import PackageDescription

let package = Package(
    name: "FloorKitFuzz",
    dependencies: [
        .package(name: "FloorKit", path: ".."),
        .package(path: "../SDK"),
    ],
    targets: [
        // What more than one harness needs: the shipped plugins, loaded in-process, and the guards that keep
        // the harnesses off defects other work items own (each guard says which).
        .target(name: "FuzzSupport", dependencies: [.product(name: "FloorHost", package: "FloorKit")]),
        .executableTarget(
            name: "fuzz-scanner",
            dependencies: [
                .product(name: "FloorHost", package: "FloorKit"),
                .product(name: "FloorKit", package: "SDK"),
            ],
            path: "Sources/FuzzScanner"),
        .executableTarget(
            name: "fuzz-tape",
            dependencies: [
                "FuzzSupport", .product(name: "FloorHost", package: "FloorKit"),
                .product(name: "HostContract", package: "SDK"),
            ],
            path: "Sources/FuzzTape"),
        .executableTarget(
            name: "fuzz-pipeline",
            dependencies: [
                "FuzzSupport", .product(name: "FloorHost", package: "FloorKit"),
                .product(name: "FloorKit", package: "SDK"),
            ],
            path: "Sources/FuzzPipeline"),
    ]
)
