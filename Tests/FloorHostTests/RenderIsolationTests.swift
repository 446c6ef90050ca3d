import FloorRuntime
import FloorSession
import Foundation
import Testing

/// A render survives plugins that crash or hang: floorhost scans each new or changed library in a child
/// process first, records a bad one in the scan cache (path, size, modification time), skips it with one
/// line until its file changes, and renders the page with the other plugins.
struct RenderIsolationTests {
    /// A plugin folder with the shipped Title plugin and a Badge plugin built with `defines`, a page using
    /// both, and a cache file path in the same temporary folder.
    struct Setup {
        let folder: TemporaryFolder
        let plugins: String
        let badge: String
        let page: String
        var cache: String { folder.file("scan-cache.json") }

        init(_ defines: [String]) throws {
            folder = try TemporaryFolder("isolation")
            plugins = try folder.installShippedPlugins(["Title"])
            badge = plugins + "/libBadge.so"
            try compileCPlugin(to: badge, defines: defines)
            page = try folder.write(
                "page.json",
                #"{"floors":[{"type":"Title","id":"t","title":"Still here"},{"type":"Badge","id":"b","text":"Badge works"}]}"#
            )
        }

        func render(_ extra: [String] = []) throws -> ProcessResult {
            try floorhost(["--plugins", plugins, "--plugin-cache", cache, "--plugin-scan-timeout", "3", page] + extra)
        }

        func cacheEntries() throws -> [[String: Any]] {
            let data = try #require(FileManager.default.contents(atPath: cache))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return try #require(object["libraries"] as? [[String: Any]])
        }

        func entry(for library: String) throws -> [String: Any]? {
            let path = URL(fileURLWithPath: library).standardizedFileURL.path
            return try cacheEntries().first { ($0["key"] as? [String: Any])?["path"] as? String == path }
        }
    }

    @Test(arguments: [
        (["ABORT_IN_INIT"], "crashed", "crashed with SIGABRT while registering its types (init)"),
        (["SEGFAULT_IN_HEIGHT"], "crashed", "crashed with SIGSEGV while laying out its sample floors (expand, height)"),
        (["HANG_IN_DECODE"], "hung", "hung (no answer for 3 s) while decoding its sample floors"),
    ])
    func aBadPluginIsSkippedRememberedAndRetriedWhenItChanges(defines: [String], verdict: String, reason: String) throws
    {
        let setup = try Setup(defines)

        let first = try setup.render()
        #expect(first.status == 0, "the page still renders: \(first.stderr)")
        #expect(first.stdout.contains("Still here"))
        #expect(!first.stdout.contains("Badge works"))
        #expect(
            first.stderr.contains(
                "error: \(setup.badge): skipped: scanned in a child process, it \(reason); it is skipped until the file changes (scan cache: \(setup.cache))"
            ), "\(first.stderr)")
        let recorded = try #require(try setup.entry(for: setup.badge))
        #expect(recorded["verdict"] as? String == verdict)
        #expect(recorded["reason"] as? String == reason)
        #expect(try setup.entry(for: setup.plugins + "/libTitleFloor.so")?["verdict"] as? String == "safe")

        // Known bad at the same path, size and modification time: skipped without scanning again.
        let second = try setup.render()
        #expect(second.status == 0)
        #expect(second.stdout.contains("Still here"))
        #expect(second.stderr.contains("error: \(setup.badge): skipped: when scanned at "))
        #expect(
            second.stderr.contains(
                " it \(reason), and the file has not changed since; it is scanned again when it changes"))
        #expect(
            try setup.entry(for: setup.badge)?["scanned"] as? Double == recorded["scanned"] as? Double,
            "not scanned again")

        // The author fixes the plugin: the changed file is scanned again, passes, and renders.
        try compileCPlugin(to: setup.badge)
        let third = try setup.render()
        #expect(third.status == 0)
        #expect(third.stdout.contains("Badge works"), "\(third.stderr)")
        #expect(!third.stderr.contains("skipped"))
        #expect(try setup.entry(for: setup.badge)?["verdict"] as? String == "safe")
    }

    @Test func aKnownGoodLibraryLoadsWithoutAChild() throws {
        let setup = try Setup([])
        let isolation = PluginIsolation(
            childCommand: [Repo.floorhostBinary, "scan-plugin"], cacheFile: setup.cache, timeout: 30)
        let host = try FloorHost(pluginFolder: setup.plugins, isolation: isolation)
        #expect(host.loadDiagnostics.isEmpty)
        #expect(host.registry.floorTypeNames == ["Badge", "Title"])
        let scanned = try #require(try setup.entry(for: setup.badge)?["scanned"] as? Double)

        // With a child that cannot start, a library the cache does not know loads with a warning; no
        // warning (and an unchanged scan time) shows both libraries came from the cache alone.
        let cachedOnly = PluginIsolation(childCommand: ["/nonexistent/floorhost"], cacheFile: setup.cache, timeout: 30)
        let again = try FloorHost(pluginFolder: setup.plugins, isolation: cachedOnly)
        #expect(again.loadDiagnostics.isEmpty)
        #expect(again.registry.floorTypeNames == ["Badge", "Title"])
        #expect(try setup.entry(for: setup.badge)?["scanned"] as? Double == scanned)

        try compileCPlugin(to: setup.badge, defines: [#"PLUGIN_NAME="Badge, rebuilt""#])
        // (This process keeps the first copy it opened, so only the scan attempt is observable here.)
        let changed = try FloorHost(pluginFolder: setup.plugins, isolation: cachedOnly)
        #expect(
            changed.loadDiagnostics.map(\.message) == [
                "\(setup.badge): loaded without a scan: cannot start /nonexistent/floorhost: No such file or directory"
            ])
    }

    @Test func libraryCallersKeepInProcessLoadingByDefault() throws {
        let setup = try Setup(["NAN_HEIGHT"])
        let host = try FloorHost(pluginFolder: setup.plugins)
        #expect(host.registry.floorTypeNames == ["Badge", "Title"])
        #expect(!FileManager.default.fileExists(atPath: setup.cache))
    }

    @Test func noPluginIsolationLoadsInProcess() throws {
        let setup = try Setup([])
        let result = try setup.render(["--no-plugin-isolation"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Badge works"))
        #expect(!FileManager.default.fileExists(atPath: setup.cache))
    }

    @Test func theCacheFileDefaultsToTheEnvironment() throws {
        let setup = try Setup(["ABORT_IN_INIT"])
        var environment = ProcessInfo.processInfo.environment
        environment["FLOORKIT_PLUGIN_CACHE"] = setup.cache
        let result = try run(Repo.floorhostBinary, ["--plugins", setup.plugins, setup.page], environment: environment)
        #expect(result.status == 0)
        #expect(result.stderr.contains("(scan cache: \(setup.cache))"))
        #expect(try setup.entry(for: setup.badge)?["verdict"] as? String == "crashed")
    }
}

/// A render ends once its output is written: the floors' models are not freed after it (a plugin's destroy
/// would run after the output; in the child a crash there would repeat the render), in the child or in-process.
struct RenderEndTests {
    @Test(arguments: [["--format", "json"], ["--format", "text"], ["--format", "json", "--no-plugin-isolation"]])
    func noModelIsFreedAfterTheOutput(options: [String]) throws {
        let setup = try RenderIsolationTests.Setup(["DESTROY_NOTES"])
        let notes = setup.folder.file("destroyed.txt")
        var environment = ProcessInfo.processInfo.environment
        environment["BADGE_DESTROY_NOTES"] = notes
        let arguments = ["--plugins", setup.plugins, "--plugin-cache", setup.cache, setup.page] + options
        // The first run scans the new library in a child of its own, which frees its sample's models.
        let scan = try run(Repo.floorhostBinary, arguments, environment: environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        try? FileManager.default.removeItem(atPath: notes)
        let render = try run(Repo.floorhostBinary, arguments, environment: environment)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.contains("Badge works"))
        #expect(!FileManager.default.fileExists(atPath: notes), "a model was freed after the output")
    }
}
