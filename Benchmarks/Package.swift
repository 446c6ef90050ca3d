// swift-tools-version: 6.1
// FloorKit's benchmarks, in their own package so that the main package's dependency list stays lean
// (an out-of-tree plugin package resolves every dependency of the package it depends on).
// Run them with Scripts/bench, which builds the inputs first; see BENCHMARKS.md.
import PackageDescription

let package = Package(
    name: "FloorKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "FloorKit", path: ".."),
        // The text engine alone (TextBench), from the SDK package the host builds it in.
        .package(name: "FloorKitSDK", path: "../SDK"),
        // On Swift 6.3 the interposer traits default on; only MallocInterposer is wanted (and available).
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // C helpers: the "direct call" baseline, a prepared-once libffi path, malloc statistics.
        .target(name: "CBenchSupport", path: "Sources/CBenchSupport", linkerSettings: [.linkedLibrary("ffi")]),
        .executableTarget(
            name: "HostBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "FloorHost", package: "FloorKit"),
                "CBenchSupport",
            ],
            path: "Benchmarks/HostBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v5)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Issue 13: the diffed reload (Scripts/bench --only diff).
        .executableTarget(
            name: "DiffBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "FloorHost", package: "FloorKit"),
            ],
            path: "Benchmarks/DiffBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Issue 23: a ProductFeed floor's decode, declared against Codable (in Scripts/bench's in-process run). Built
        // with -enable-testing (as Scripts/bench builds) for the SDK's Codable path, which is internal.
        .executableTarget(
            name: "DecodeBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "FloorKit", package: "FloorKitSDK"),
            ],
            path: "Benchmarks/DecodeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Issue 19: the text engine's cold and cached figures (Scripts/bench --only text-engine; a plain
        // executable: it times its own loops and prints glyphs a second and ns a string).
        .executableTarget(
            name: "TextBench", dependencies: [.product(name: "FloorText", package: "FloorKitSDK")],
            path: "Sources/TextBench"),
        // A next page over loopback HTTP, request to rows laid out, against the server's own time
        // (Scripts/bench --only remote; a plain executable: it pairs each load with the server's log).
        .executableTarget(
            name: "RemoteNextPage", dependencies: [.product(name: "FloorHost", package: "FloorKit")],
            path: "Sources/RemoteNextPage"),
    ]
)
