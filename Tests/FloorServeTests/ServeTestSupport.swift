import FloorRuntime
import FloorServe
import FloorSession
import Foundation

@testable import FloorServe

/// The repository and build folder, as FloorHostTests finds them (this file's path; the test binary's folder).
enum ServeRepo {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // ServeTestSupport.swift, FloorServeTests, Tests
        return url.path
    }()

    static let buildDirectory: String = {
        if let dir = ProcessInfo.processInfo.environment["FLOORKIT_BUILD_DIR"] { return dir }
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return URL(fileURLWithPath: exe).deletingLastPathComponent().path
    }()
}

extension RunningServer {
    /// `floorhost serve` over `fixture`'s pages and plugins on any free port, its scan cache in the fixture.
    convenience init(serving fixture: ServeFixture) throws {
        try self.init(arguments: [
            "serve", "--plugins", fixture.plugins, "--plugin-cache", fixture.folder + "/scan.json", "--port", "0",
            fixture.pages,
        ])
    }
}

/// A temporary folder with the shipped plugins in `plugins/` and a copy of Examples/ in `pages/`, and a
/// Preview over them (plugins in-process, as library callers load them). Removed when the value goes.
final class ServeFixture: @unchecked Sendable {
    let folder: String
    let pages: String
    let plugins: String
    let preview: Preview

    init() throws {
        folder = NSTemporaryDirectory() + "floorserve-\(UUID().uuidString)"
        pages = folder + "/pages"
        plugins = folder + "/plugins"
        let fm = FileManager.default
        try fm.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try fm.copyItem(atPath: ServeRepo.root + "/Examples", toPath: pages)
        for name in ["Focus", "IconGrid", "ProductFeed", "Title"] {
            try fm.copyItem(
                atPath: ServeRepo.buildDirectory + "/lib\(name)Floor.so", toPath: plugins + "/lib\(name)Floor.so")
        }
        let host = try FloorHost(pluginFolder: plugins)
        preview = Preview(host: host, root: try PageRoot(folder: pages), rootArgument: pages)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    @discardableResult
    func write(_ name: String, _ contents: String) throws -> String {
        let file = pages + "/" + name
        try contents.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}

/// Asks `probe` until it answers, for at most `seconds` (FloorHostTests' `eventually`, which this target
/// cannot import): for a process appearing in /proc, read again every 20 ms.
func eventually<T>(seconds: Double, _ probe: () throws -> T?) rethrows -> T? {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if let value = try probe() { return value }
        _ = poll(nil, 0, 20)
    }
    return try probe()
}
