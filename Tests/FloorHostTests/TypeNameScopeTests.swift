import FloorCore
import FloorLayout
import FloorRuntime
import FloorSession
import Foundation
import Testing

/// ABI 1.5's type names (docs/ABI.md, "Type names"): a row type is its plugin's own, so two plugins may have
/// one of the same name and both draw; a floor type stays with the plugin trusted first (pinned in
/// plugins.lock, else known to the scan cache, else first by path), and a newcomer's claim is refused by name.
struct TypeNameScopeTests {
    private func messages(_ diagnostics: [Diagnostic]) -> String { diagnostics.map(\.message).joined(separator: "\n") }

    // MARK: Row types are each plugin's own

    @Test func twoPluginsWithARowTypeOfOneNameBothDrawTheirRows() throws {
        let folder = try TemporaryFolder("row-scope")
        let plugins = try folder.installShippedPlugins(["Title"])
        try compileCPlugin("contract.c", to: plugins + "/libA.so")
        try compileCPlugin(
            "contract.c", to: plugins + "/libB.so", defines: [#"PLUGIN_ID="com.example.b""#, #"FLOOR_TYPE="Other""#])
        let host = try FloorHost(pluginFolder: plugins)
        #expect(host.loadDiagnostics.isEmpty, "\(messages(host.loadDiagnostics))")
        let page = try folder.write(
            "page.json",
            #"{"floors":[{"type":"Contract","id":"c","text":"mine","rows":2},{"type":"Other","id":"o","text":"theirs"}]}"#
        )
        for dispatch in [DispatchMode.typed, .ffi] {
            let adapter = try host.layout(page: page, width: 375, dispatch: dispatch)
            #expect(adapter.diagnostics.isEmpty, "\(messages(adapter.diagnostics))")
            let rows = (0..<adapter.rowCount).map { adapter.describe(row: $0) }
            #expect(rows.map(\.type) == ["ContractRow", "ContractRow", "ContractRow"])
            #expect(
                rows.map(\.plugin) == ["com.floorkit.test.contract", "com.floorkit.test.contract", "com.example.b"])
            #expect(try adapter.tap(section: 1, row: 0).get().url == "floorkit://contract")
        }

        // Outputs keep the bare name and add the plugin where two plugins share it.
        let json = try floorhost(["--plugins", plugins, "--format", "json", "--no-plugin-isolation", page])
        #expect(json.status == 0, "\(json.stderr)")
        let rows = try #require(try jsonObject(json.stdout)["rows"] as? [[String: Any]])
        #expect(rows.map { $0["type"] as? String } == ["ContractRow", "ContractRow", "ContractRow"])
        #expect(
            rows.map { $0["plugin"] as? String } == [
                "com.floorkit.test.contract", "com.floorkit.test.contract", "com.example.b",
            ])
        let html = try floorhost(["--plugins", plugins, "--format", "html", "--no-plugin-isolation", page])
        #expect(html.stdout.contains(#"data-type="ContractRow" data-plugin="com.example.b""#))
    }

    /// The issue's case: a newcomer that happens to pick a shipped plugin's row type name made the shipped
    /// floor disappear from every page.
    @Test func aNewcomerWithAShippedRowTypeNameLeavesTheShippedFloorAlone() throws {
        let folder = try TemporaryFolder("row-scope")
        let plugins = try folder.installShippedPlugins(["Title"])
        try compileCPlugin(to: plugins + "/libAAA-badge.so", defines: [#"ROW_TYPE="TitleBar""#])
        let page = try folder.write(
            "page.json",
            #"{"floors":[{"type":"Title","id":"t","title":"Still here"},{"type":"Badge","id":"b","text":"new"}]}"#)
        let host = try FloorHost(pluginFolder: plugins)
        #expect(host.loadDiagnostics.isEmpty, "\(messages(host.loadDiagnostics))")
        let adapter = try host.layout(page: page, width: 375)
        #expect(adapter.diagnostics.isEmpty, "\(messages(adapter.diagnostics))")
        #expect((0..<adapter.rowCount).map { adapter.describe(row: $0).type } == ["TitleBar", "TitleBar"])
        #expect(
            (0..<adapter.rowCount).map { adapter.describe(row: $0).plugin } == [
                "com.floorkit.floor.title", "com.floorkit.test.badge",
            ])

        let text = try floorhost(["--plugins", plugins, page])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Still here") && text.stdout.contains("new"), "\(text.stdout)")
    }

    // MARK: A floor type stays with the plugin trusted first

    @Test func standingOrdersPinnedThenKnownThenPath() {
        let pinned = PluginStanding(pinned: true)
        let known = PluginStanding(knownSince: 100)
        let knownLater = PluginStanding(knownSince: 200)
        let new = PluginStanding()
        #expect(pinned.precedes(known, path: "z", otherPath: "a"))
        #expect(pinned.precedes(new, path: "z", otherPath: "a"))
        #expect(known.precedes(new, path: "z", otherPath: "a"))
        #expect(known.precedes(knownLater, path: "z", otherPath: "a"))
        #expect(!knownLater.precedes(known, path: "a", otherPath: "z"))
        #expect(new.precedes(new, path: "a", otherPath: "z") && !new.precedes(new, path: "z", otherPath: "a"))
        #expect(pinned.reason(against: new) == "it is pinned in plugins.lock and the other is not")
        #expect(known.reason(against: knownLater) == "the plugin scan cache knew it first")
    }

    /// The established plugin keeps its floor type whether the newcomer sorts before or after it, and still
    /// after the scan cache has come to know the newcomer too (it knew the established one first).
    @Test func aFloorTypeStaysWithThePluginTheScanCacheKnewFirst() throws {
        for newcomer in ["libAAA-newcomer.so", "libZZZ-newcomer.so"] {
            let folder = try TemporaryFolder("floor-claim")
            let plugins = try folder.installShippedPlugins(["Title"])
            let established = plugins + "/libM-contract.so"
            try compileCPlugin("contract.c", to: established)
            let cacheFile = folder.file("scan.json")
            let cache = PluginScanCache(file: cacheFile)
            cache.record(.safe, for: established)
            try cache.save()
            try compileCPlugin(
                "contract.c", to: plugins + "/" + newcomer,
                defines: [#"PLUGIN_ID="com.example.newcomer""#, #"ROW_TYPE="NewcomerRow""#])
            let page = try folder.write("page.json", #"{"floors":[{"type":"Contract","id":"c","text":"hi"}]}"#)

            for round in ["the newcomer is new", "the cache knows the newcomer too"] {
                let host = try FloorHost(pluginFolder: plugins, trust: PluginTrust(scanCache: cacheFile))
                let errors = host.loadDiagnostics
                #expect(errors.count == 1, "\(newcomer), \(round): \(messages(errors))")
                #expect(errors.first?.plugin == "com.example.newcomer")
                #expect(
                    errors.first?.message.contains(
                        "\(newcomer): com.example.newcomer: floor type 'Contract' is already registered by com.floorkit.test.contract (\(established)), which keeps it because the plugin scan cache knew it first; the claim of com.example.newcomer (\(plugins)/\(newcomer)) is refused and floors of type 'Contract' are drawn by com.floorkit.test.contract"
                    ) == true, "\(newcomer), \(round): \(messages(errors))")
                let adapter = try host.layout(page: page, width: 375)
                #expect(adapter.diagnostics.isEmpty)
                #expect((0..<adapter.rowCount).map { adapter.describe(row: $0).type } == ["ContractRow"])
                // The next round: a scan has recorded the newcomer as well, later.
                cache.record(.safe, for: plugins + "/" + newcomer)
                try cache.save()
            }
        }
    }

    /// A folder with two plugins registering the same floor type: libZ-established.so (the test contract
    /// plugin) and libA-newcomer.so (the same, as com.example.a), which sorts first by path.
    private func establishedAndNewcomer() throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder("floor-claim")
        let plugins = folder.file("plugins")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try compileCPlugin("contract.c", to: plugins + "/libZ-established.so")
        try compileCPlugin("contract.c", to: plugins + "/libA-newcomer.so", defines: [#"PLUGIN_ID="com.example.a""#])
        return (folder, plugins)
    }

    /// With plugins.lock every library that loads is pinned: then the scan cache decides, then the path.
    @Test func aLockedFolderLoadsInTheOrderOfTheScanCache() throws {
        let (folder, plugins) = try establishedAndNewcomer()
        _ = try PluginLock.write(folder: plugins)
        let cacheFile = folder.file("scan.json")
        let cache = PluginScanCache(file: cacheFile)
        cache.record(.safe, for: plugins + "/libZ-established.so")
        try cache.save()
        let (trusted, _) = try PluginTrust(scanCache: cacheFile).vet(
            try PluginDiscovery.libraries(in: plugins), in: plugins)
        #expect(trusted.map(\.path) == [plugins + "/libZ-established.so", plugins + "/libA-newcomer.so"])
        #expect(trusted.allSatisfy { $0.standing.pinned })
        let host = try FloorHost(pluginFolder: plugins, trust: PluginTrust(scanCache: cacheFile))
        #expect(host.plugins.map(\.id) == ["com.floorkit.test.contract", "com.example.a"])
        #expect(
            messages(host.loadDiagnostics).contains(
                "floor type 'Contract' is already registered by com.floorkit.test.contract"))
    }

    /// A supervised run reads the scan cache once: vetting ranks the libraries by the cache it is given, and
    /// reads the file itself only when given none.
    @Test func vettingRanksByTheScanCacheItIsGiven() throws {
        let (folder, plugins) = try establishedAndNewcomer()
        let cacheFile = folder.file("scan.json")
        let recorded = PluginScanCache(file: cacheFile)
        recorded.record(.safe, for: plugins + "/libZ-established.so")
        try recorded.save()
        let read = PluginScanCache(file: cacheFile)
        try FileManager.default.removeItem(atPath: cacheFile)
        let libraries = try PluginDiscovery.libraries(in: plugins)
        let trust = PluginTrust(scanCache: cacheFile)
        let (given, _) = try trust.vet(libraries, in: plugins, knownBy: read)
        #expect(given.map(\.path) == [plugins + "/libZ-established.so", plugins + "/libA-newcomer.so"])
        #expect(given.first?.standing.knownSince != nil)
        let (reread, _) = try trust.vet(libraries, in: plugins)
        #expect(reread.map(\.path) == [plugins + "/libA-newcomer.so", plugins + "/libZ-established.so"])
    }

    /// End to end through the CLI: a first run scans the established plugin (the scan cache learns it); a
    /// newcomer that sorts first and registers the same floor type is then refused by name in render and
    /// check, with and without plugin isolation, and the floor is drawn by the established plugin.
    @Test func theCLIKeepsAFloorTypeWithThePluginItScannedFirst() throws {
        let folder = try TemporaryFolder("floor-claim")
        let plugins = folder.file("plugins")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try compileCPlugin("contract.c", to: plugins + "/libM-contract.so")
        let cache = folder.file("scan.json")
        let page = try folder.write("page.json", #"{"floors":[{"type":"Contract","id":"c","text":"hi"}]}"#)
        let first = try floorhost(["--plugins", plugins, "--plugin-cache", cache, "--format", "json", page])
        #expect(first.status == 0, "\(first.stderr)")
        try compileCPlugin(
            "contract.c", to: plugins + "/libAAA-newcomer.so", defines: [#"PLUGIN_ID="com.example.newcomer""#])
        let refusal =
            "floor type 'Contract' is already registered by com.floorkit.test.contract (\(plugins)/libM-contract.so), which keeps it because the plugin scan cache knew it first; the claim of com.example.newcomer (\(plugins)/libAAA-newcomer.so) is refused"
        for isolation in [[], ["--no-plugin-isolation"]] {
            let json = try floorhost(
                ["--plugins", plugins, "--plugin-cache", cache, "--format", "json"] + isolation + [page])
            let output = try jsonObject(json.stdout)
            let rows = try #require(output["rows"] as? [[String: Any]])
            #expect(rows.map { $0["plugin"] as? String } == ["com.floorkit.test.contract"], "\(json.stdout)")
            let said = (output["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
            #expect(said.contains { $0.contains(refusal) }, "\(isolation): \(said)")

            let check = try floorhost(["check", "--plugins", plugins, "--plugin-cache", cache] + isolation + [page])
            #expect(check.stdout.contains(refusal) || check.stderr.contains(refusal), "\(check.stdout)\(check.stderr)")
        }
    }
}
