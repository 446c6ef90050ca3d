// swift-tools-version: 6.0
// FloorKit: a host that loads floor plugins at run time and renders CMS pages with them.
// Plugin packages depend on SDK/ (CFloorABI + FloorKit, no dependencies), never on this package: a package
// resolves every dependency of the packages it depends on, and this one has the host's (argument parser,
// Hummingbird for `serve`). Benchmarks live in Benchmarks/Package.swift, fuzzers in Fuzzing/.
import PackageDescription

/// The floor plugins we ship: each folder under Plugins/ becomes one dynamic library, lib<Name>Floor.so.
let shippedFloors = ["Focus", "IconGrid", "ProductFeed", "Title"]

/// The host's library targets, lowest layer first (ARCHITECTURE.md).
let hostLayers = [
    "FloorCore", "FloorRuntime", "FloorLayout", "FloorSession", "FloorRender",
    "FloorTerminal", "FloorCheck", "FloorConform", "FloorServe",
]

/// What makes a plugin's exit, _exit and _Exit bind to the executable's own (CPluginExit).
let pluginExitExports: [LinkerSetting] = [
    .unsafeFlags(["exit", "_exit", "_Exit"].flatMap { ["-Xlinker", "--export-dynamic-symbol=\($0)"] })
]

/// What every host target is compiled with. Concrete generic types are reached through their metadata
/// accessors, which are given the conformances the type's requirements need, not instantiated from mangled
/// names: the runtime checks a mangled name's requirements by looking each conformance up, and a first
/// look-up scans every conformance record of every loaded library (about 4,400 before the plugins load),
/// once per type, at every process's start (BENCHMARKS.md, "A process's start: ArgumentParser and the
/// plugins' load").
let hostSwiftSettings: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])
]

let package = Package(
    name: "FloorKit",
    products: [
        // The host as libraries, layer by layer (ARCHITECTURE.md): what benchmarks and fuzzers link. Not the
        // browser preview, so that they do not build Hummingbird.
        .library(name: "FloorHost", targets: hostLayers.filter { $0 != "FloorServe" }),
        .executable(name: "floorhost", targets: ["floorhost"]),
        // `floorhost serve`, which floorhost runs from beside itself: built only when asked (Scripts/floorhost
        // serve, swift build), so that the README's main command compiles no server (ARCHITECTURE.md).
        .executable(name: "floorhost-serve", targets: ["floorhost-serve"]),
    ] + shippedFloors.map { .library(name: "\($0)Floor", type: .dynamic, targets: ["\($0)Floor"]) },
    dependencies: [
        // The SDK plugins build against (its own package, so that they resolve nothing else).
        .package(path: "SDK"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `floorhost serve` only (the FloorServe target).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // Hummingbird's own transport, named to reach its channel (connection limits, IOError).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // serve's GET /metrics in Prometheus' text format (FloorServe's ServeMetrics): swift-prometheus, whose
        // collectors are swift-metrics' CoreMetrics handlers (it brings swift-metrics); the host only.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        .systemLibrary(name: "CFFI", providers: [.apt(["libffi-dev"])]),
        // SHA-256 of plugin libraries (plugins.lock, the scan cache) and reading --ca-file's certificates, from
        // the system's libcrypto: no BoringSSL built from source.
        // Pages over http(s) (RemotePageClient) with the system's libcurl and its OpenSSL: the first build
        // compiles no TLS library from source (async-http-client and swift-nio-ssl's BoringSSL were 315 of its
        // C files). Both loaded when first needed, not linked (CSystemLibraries): most processes need neither,
        // nor libcurl's thirty libraries (Scripts/setup installs libcurl4-openssl-dev and libssl-dev for their
        // headers).
        .target(name: "CSystemLibraries"),
        // Schema patterns matched with the system's ICU regular expressions over UTF-8 (libicu-dev, which the
        // SDK's text engine already links): a C target, since Foundation declares its own ICU to Swift. Its
        // libicui18n is opened when a pattern first needs it, not linked (floor_pattern.c).
        .target(name: "CPattern", linkerSettings: [.linkedLibrary("icuuc")]),
        // The preview's page fonts (FontSubsets): HarfBuzz's subsetter (libharfbuzz-dev, which the SDK's text
        // engine already needs) cuts the served CJK faces down to the glyphs a page uses.
        .target(name: "CFontSubset", linkerSettings: [.linkedLibrary("harfbuzz-subset"), .linkedLibrary("harfbuzz")]),
        // glibc functions Swift's Glibc module leaves out (mallinfo2, pipe2), for child processes and conform.
        .systemLibrary(name: "CGlibcExtras"),
        // The layers, each importing only those above it in this list (ARCHITECTURE.md, "Layers"): the
        // compiler rejects a dependency that points down the pipeline.
        // Core: diagnostics, host output, plugin-call records, child processes, the JSON cursor and writer.
        .target(
            name: "FloorCore",
            dependencies: [
                .product(name: "CFloorABI", package: "SDK"), .product(name: "HostContract", package: "SDK"),
                "CGlibcExtras",
            ]),
        // Plugin runtime: discovery, trust, loading, registry, selector calls, schema, page decoding.
        .target(
            name: "FloorRuntime",
            dependencies: [
                "FloorCore", .product(name: "CFloorABI", package: "SDK"),
                .product(name: "HostContract", package: "SDK"),
                "CFFI", "CGlibcExtras", "CSystemLibraries", "CPattern",
            ]),
        // Layout: adapter, row table, viewport, sticky rows, taps, cell drawing, diffing. No output format.
        .target(
            name: "FloorLayout",
            dependencies: [
                "FloorCore", "FloorRuntime", .product(name: "CFloorABI", package: "SDK"),
                .product(name: "HostContract", package: "SDK"),
            ]),
        // Session: a page being looked at (load-more, prefetch, retry, impressions) and its page sources.
        .target(
            name: "FloorSession",
            dependencies: [
                "FloorCore", "FloorRuntime", "FloorLayout", .product(name: "CFloorABI", package: "SDK"),
                .product(name: "HostContract", package: "SDK"), "CSystemLibraries", "CGlibcExtras",
            ]),
        // Rendering: the text, json and html backends of the canvas.
        .target(
            name: "FloorRender",
            dependencies: [
                "FloorCore", "FloorRuntime", "FloorLayout", "FloorSession",
                .product(name: "CFloorABI", package: "SDK"), .product(name: "HostContract", package: "SDK"),
                .product(name: "FloorText", package: "SDK"),
            ]),
        // Front ends, peers: none imports another.
        .target(
            name: "FloorTerminal",
            dependencies: ["FloorCore", "FloorRuntime", "FloorLayout", "FloorSession", "FloorRender"]),
        .target(
            name: "FloorCheck",
            dependencies: [
                "FloorCore", "FloorRuntime", "FloorLayout", "FloorSession", "FloorRender",
                .product(name: "HostContract", package: "SDK"),
            ]),
        .target(
            name: "FloorConform",
            dependencies: [
                "FloorCore", "FloorRuntime", "FloorLayout", "FloorSession", "FloorRender", "CGlibcExtras",
                .product(name: "CFloorABI", package: "SDK"), .product(name: "HostContract", package: "SDK"),
            ]),
        // The browser preview: `floorhost serve`.
        .target(
            name: "FloorServe",
            dependencies: [
                "FloorCore", "FloorRuntime", "FloorLayout", "FloorSession", "FloorRender",
                .product(name: "HostContract", package: "SDK"), .product(name: "FloorText", package: "SDK"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                "CFontSubset", .product(name: "Prometheus", package: "swift-prometheus"),
            ]),
        // floorhost's own exit, _exit and _Exit, which a plugin's calls bind to (FloorCore's PluginExitGuard):
        // linked into the executables only, never into a library or a test runner.
        .target(name: "CPluginExit"),
        // The command line both executables share: option groups, how a child is started, output and exit.
        .target(
            name: "FloorCommandLine",
            dependencies: [
                "FloorCore", "FloorRuntime", "FloorSession", "FloorRender",
                .product(name: "HostContract", package: "SDK"), .product(name: "FloorText", package: "SDK"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The CLI: argument parsing and wiring only. It exports exit, _exit and _Exit, so that libraries it
        // dlopens later bind to CPluginExit's (interposition); `nm -D floorhost` lists them.
        .executableTarget(
            name: "floorhost",
            dependencies: hostLayers.filter { $0 != "FloorServe" }.map { .target(name: $0) } + [
                "FloorCommandLine", "CPluginExit", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: pluginExitExports),
        // `floorhost serve`, its worker and the worker's plugin scans (the worker dlopens plugins: the same exports).
        .executableTarget(
            name: "floorhost-serve",
            dependencies: [
                "FloorCore", "FloorRuntime", "FloorSession", "FloorServe", "FloorCommandLine", "CPluginExit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: pluginExitExports),
        .testTarget(
            name: "FloorHostTests",
            dependencies: hostLayers.map { .target(name: $0) } + [
                .product(name: "CFloorABI", package: "SDK"), .product(name: "HostContract", package: "SDK"),
                // The test kit's own tests: ProductFeed linked in, as a plugin package's tests link their plugin.
                .product(name: "FloorKitTesting", package: "SDK"), "ProductFeedFloor",
                // CharacterClassTests compares the schema's own character classes with ICU's matching;
                // SystemLibraryLoadingTests loads libcurl as the remote-page client does.
                "CPattern", "CSystemLibraries",
            ]),
        .testTarget(
            name: "FloorServeTests",
            dependencies: hostLayers.map { .target(name: $0) } + [
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"), "CGlibcExtras",
                // The text agreement test lays text out as the host does.
                .product(name: "HostContract", package: "SDK"), .product(name: "FloorText", package: "SDK"),
            ]),
    ]
        + shippedFloors.map {
            .target(
                name: "\($0)Floor", dependencies: [.product(name: "FloorKit", package: "SDK")], path: "Plugins/\($0)")
        }
)

/// The targets compiled with hostSwiftSettings: the layers and both executables with what they share.
let hostTargets = hostLayers + ["FloorCommandLine", "floorhost", "floorhost-serve"]
for target in package.targets where hostTargets.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + hostSwiftSettings
}
