import FloorSession
import Foundation
import Testing

/// Where things are when tests run: the repository (from this file's path) and the build folder that
/// `swift test` built the plugin libraries and the floorhost binary into (next to the test binary, or
/// FLOORKIT_BUILD_DIR).
enum Repo {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }  // Support, FloorHostTests, Tests
        return url.path
    }()

    static func path(_ relative: String) -> String { root + "/" + relative }

    static let buildDirectory: String = {
        if let dir = ProcessInfo.processInfo.environment["FLOORKIT_BUILD_DIR"] { return dir }
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        // The test binary is <build>/FloorKitPackageTests.xctest (a file on Linux).
        return URL(fileURLWithPath: exe).deletingLastPathComponent().path
    }()

    static let shippedPlugins = ["Focus", "IconGrid", "ProductFeed", "Title"]

    static func shippedLibrary(_ name: String) -> String { buildDirectory + "/lib\(name)Floor.so" }

    static var floorhostBinary: String { buildDirectory + "/floorhost" }

    /// `floorhost serve`'s program, which floorhost runs from beside itself (ServeProgram).
    static var floorhostServeBinary: String { buildDirectory + "/floorhost-serve" }
}

/// A fresh temporary folder, removed when the value goes away.
final class TemporaryFolder {
    let path: String

    init(_ label: String = "floorkit") throws {
        path = NSTemporaryDirectory() + "\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    @discardableResult
    func write(_ name: String, _ contents: String) throws -> String {
        let target = file(name)
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        try contents.write(toFile: target, atomically: true, encoding: .utf8)
        return target
    }

    /// Copies the shipped plugin libraries (or `only` those) into `subfolder`.
    func installShippedPlugins(_ only: [String] = Repo.shippedPlugins, into subfolder: String = "plugins") throws
        -> String
    {
        let folder = file(subfolder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in only {
            try FileManager.default.copyItem(atPath: Repo.shippedLibrary(name), toPath: folder + "/lib\(name)Floor.so")
        }
        return folder
    }
}

/// A finished child process.
struct ProcessResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs a program to completion and collects its output (both pipes are drained concurrently, so a
/// chatty child never blocks).
func run(
    _ executable: String, _ arguments: [String], in directory: String? = nil,
    environment: [String: String]? = nil
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let group = DispatchGroup()
    nonisolated(unsafe) var errData = Data()
    group.enter()
    DispatchQueue.global().async {
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus,
        stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}

/// Runs the built floorhost binary. Its plugin scan cache (FLOORKIT_PLUGIN_CACHE) is a temporary file the
/// test runs share, never the user's; entries for deleted fixtures are dropped as it is rewritten. A test
/// that cares about the cache passes --plugin-cache. Its font facts (FLOORKIT_FONT_CACHE) are kept in a
/// temporary folder the test runs share, never the user's.
func floorhost(_ arguments: [String]) throws -> ProcessResult {
    var environment = ProcessInfo.processInfo.environment
    environment["FLOORKIT_PLUGIN_CACHE"] = testScanCache
    environment["FLOORKIT_FONT_CACHE"] = testFontFacts
    return try run(Repo.floorhostBinary, arguments, environment: environment)
}

private let testScanCache = NSTemporaryDirectory() + "floorkit-tests-plugin-scan.json"
private let testFontFacts = NSTemporaryDirectory() + "floorkit-tests-font-facts"

/// Compiles the C plugin fixture `Tests/Fixtures/CPlugins/<source>` into `output` with `defines`
/// (e.g. ["ABI_MAJOR=2"]), as a plugin author would with `cc -shared`.
func compileCPlugin(_ source: String = "badge.c", to output: String, defines: [String] = []) throws {
    let result = try run(
        "/usr/bin/env",
        [
            "cc", "-shared", "-fPIC", "-Wall", "-Werror",
            "-I", Repo.path("SDK/Sources/CFloorABI/include"),
        ]
            + defines.map { "-D" + $0 }
            + [Repo.path("Tests/Fixtures/CPlugins/" + source), "-o", output])
    if result.status != 0 { Issue.record("cc failed for \(source) \(defines): \(result.stderr)") }
}

/// A host whose plugin folder (`folder`'s "plugins") holds tiles.c alone: the collection tests' plugin.
func tilesHost(in folder: TemporaryFolder) throws -> FloorHost {
    let plugins = folder.file("plugins")
    try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
    try compileCPlugin("tiles.c", to: plugins + "/libTilesFloor.so")
    return try FloorHost(pluginFolder: plugins)
}

/// Parses floorhost's --format json output.
func jsonObject(_ text: String) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(value as? [String: Any])
}

/// A JSON number (JSONSerialization gives integral values as integers) as a Double.
func number(_ value: Any?) -> Double? {
    (value as? NSNumber)?.doubleValue
}

/// Asks `probe` until it answers, for at most `seconds`, and returns the answer (nil when the deadline
/// passed). For events with no descriptor this process could wait on (a process appearing in /proc or
/// ending, a terminal screen redrawn by another process): the state is read again every 20 ms.
func eventually<T>(seconds: Double, _ probe: () throws -> T?) rethrows -> T? {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if let value = try probe() { return value }
        _ = poll(nil, 0, 20)
    }
    return try probe()
}

/// A page diagnostic's message as tests compare it: without `page`, its `line:column` and its consequence
/// ("page.json:1:52: floors[1] (floor 'x'): not shown ... (shown as a placeholder)" → "floors[1] (floor 'x'):
/// not shown ..."). Tests of positions and consequences (SeverityTests) compare whole messages.
func pageMessage(_ message: String, page: String) -> String {
    var rest = Substring(message)
    if rest.hasPrefix(page) { rest = rest.dropFirst(page.count) }
    if let match = rest.prefixMatch(of: /:\d+:\d+/) { rest = rest[match.range.upperBound...] }
    if rest.hasPrefix(": ") { rest = rest.dropFirst(2) }
    for consequence in [
        "left out", "shown as a placeholder", "ignored", "clamped", "the chain stops here", "replaced by U+FFFD",
    ] where rest.hasSuffix(" (\(consequence))") {
        rest = rest.dropLast(consequence.count + 3)
    }
    return String(rest)
}
