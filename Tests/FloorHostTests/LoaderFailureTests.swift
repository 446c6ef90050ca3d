import FloorCore
import FloorLayout
import FloorRuntime
import FloorSession
import Foundation
import Testing

/// Each defect a plugin library can have is one clear line naming the file and the reason, and the host
/// still renders the page with the other plugins.
struct LoaderFailureTests {
    /// A plugin folder with the shipped Title plugin plus `broken` (made by the closure), and a page that
    /// uses both a Title floor and the broken one's Badge floor.
    private func load(_ make: (TemporaryFolder, String) throws -> Void) throws -> (FloorHost, Adapter, TemporaryFolder)
    {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins(["Title"])
        try make(folder, plugins)
        let page = try folder.write(
            "page.json",
            #"{"floors":[{"type":"Title","id":"t","title":"Still here"},{"type":"Badge","id":"b","text":"badge"}]}"#)
        let host = try FloorHost(pluginFolder: plugins)
        let adapter = try host.layout(page: page, width: 375)
        #expect(adapter.describe(row: 0).type == "TitleBar", "the healthy plugin must still render")
        return (host, adapter, folder)
    }

    private func onlyError(_ host: FloorHost) throws -> Diagnostic {
        #expect(host.loadDiagnostics.count == 1, "\(host.loadDiagnostics)")
        let diagnostic = try #require(host.loadDiagnostics.first)
        #expect(diagnostic.level == .error)
        #expect(!diagnostic.message.contains("\n"), "one line")
        return diagnostic
    }

    @Test func notASharedObject() throws {
        let (host, adapter, _) = try load { folder, plugins in
            try "this is a text file, not ELF".write(
                toFile: plugins + "/libNotELF.so", atomically: true, encoding: .utf8)
        }
        let error = try onlyError(host)
        #expect(error.message.hasPrefix(host.loadDiagnostics[0].file!))
        #expect(error.file!.hasSuffix("libNotELF.so"))
        #expect(error.message.contains("not loadable as a shared object"))
        #expect(error.message.contains("invalid ELF header") || error.message.contains("file too short"))
        #expect(adapter.describe(row: 1).type == "FloorPlaceholder")
    }

    @Test func noEntrySymbol() throws {
        let (host, _, _) = try load { _, plugins in
            try compileCPlugin(to: plugins + "/libNoEntry.so", defines: ["NO_ENTRY"])
        }
        let error = try onlyError(host)
        #expect(error.file!.hasSuffix("libNoEntry.so"))
        #expect(error.message.contains("no entry symbol 'floor_plugin_entry'"))
    }

    @Test func abiMajorDiffers() throws {
        let (host, _, _) = try load { _, plugins in
            try compileCPlugin(to: plugins + "/libABI2.so", defines: ["ABI_MAJOR=2"])
        }
        let error = try onlyError(host)
        #expect(
            error.message.contains(
                "libABI2.so: plugin ABI 2.5 is incompatible with host ABI 1.5 (major versions differ); rebuild the plugin against floor_abi.h 1.x"
            ))
    }

    @Test func abiMinorNewerThanHost() throws {
        let (host, _, _) = try load { _, plugins in
            try compileCPlugin(to: plugins + "/libABI17.so", defines: ["ABI_MINOR=7"])
        }
        let error = try onlyError(host)
        #expect(error.message.contains("libABI17.so: plugin ABI 1.7 is newer than host ABI 1.5; update floorhost"))
    }

    @Test func aPluginBuiltAgainstABI10StillLoads() throws {
        // Structs end before the 1.1 selectors: the host must not read past what the plugin wrote.
        let (host, adapter, _) = try load { _, plugins in
            try compileCPlugin(to: plugins + "/libOld.so", defines: ["ABI_MINOR=0", "ABI_1_0_STRUCTS"])
        }
        #expect(host.loadDiagnostics.isEmpty, "\(host.loadDiagnostics)")
        #expect(adapter.describe(row: 1).type == "BadgeRow")
        #expect(adapter.tappableItems(row: 1) == 0)
    }

    @Test func selectorSignatureMismatch() throws {
        let (host, adapter, _) = try load { _, plugins in
            try compileCPlugin(to: plugins + "/libWrongSig.so", defines: [#"HEIGHT_SIGNATURE="i(ppQd)""#])
        }
        let error = try onlyError(host)
        #expect(
            error.message.contains(
                "libWrongSig.so: com.floorkit.test.badge: height calculator of row type 'BadgeRow' 'heightForBadgeRow:width:' has signature i(ppQd); expected d(ppQd)"
            ))
        #expect(!host.registry.rowTypeNames.contains("BadgeRow"))
        // The floor type itself registered; its row type did not, so the floor shows no rows but the page renders.
        #expect((0..<adapter.rowCount).map { adapter.describe(row: $0).floor } == ["t"])
        #expect(adapter.diagnostics.first?.message.contains("which it did not register") == true)
    }

    /// A floor type two libraries claim stays with the one trusted first (here: first by path, neither being
    /// pinned or known to a scan cache); their row types of one name are each plugin's own (ABI 1.5). See
    /// FloorTypeClaimTests for the whole rule.
    @Test func aFloorTypeTwoPluginsClaimStaysWithTheFirstByPath() throws {
        let (host, adapter, _) = try load { _, plugins in
            try compileCPlugin(to: plugins + "/libA-badge.so", defines: [#"PLUGIN_ID="com.example.a""#])
            try compileCPlugin(to: plugins + "/libB-badge.so", defines: [#"PLUGIN_ID="com.example.b""#])
        }
        let error = try onlyError(host)
        #expect(
            error.message.contains(
                "libB-badge.so: com.example.b: floor type 'Badge' is already registered by com.example.a (")
                && error.message.contains(
                    "libA-badge.so), which keeps it because it comes first by path (neither is pinned in plugins.lock or known to the scan cache before the other); the claim of com.example.b ("
                ), "\(error.message)")
        #expect(error.plugin == "com.example.b")
        #expect(adapter.describe(row: 1).type == "BadgeRow")
        #expect(host.registry.floorTypeNames.contains("Badge") && host.registry.rowTypeNames.contains("BadgeRow"))
        #expect(host.plugins.map(\.id) == ["com.example.a", "com.example.b", "com.floorkit.floor.title"])
    }

    @Test func samePluginIdTwice() throws {
        let (host, _, _) = try load { _, plugins in
            try compileCPlugin(to: plugins + "/libA.so")
            try compileCPlugin(to: plugins + "/libB.so", defines: [#"FLOOR_TYPE="Other""#, #"ROW_TYPE="OtherRow""#])
        }
        let error = try onlyError(host)
        #expect(error.message.contains("libB.so: plugin id 'com.floorkit.test.badge' is already loaded from"))
    }

    @Test func missingPluginFolderIsAClearFailure() throws {
        let folder = try TemporaryFolder()
        #expect(throws: PluginDiscovery.Failure.self) { try FloorHost(pluginFolder: folder.file("nope")) }
        let result = try floorhost(["--plugins", folder.file("nope"), Repo.path("Examples/home.json")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no such plugin folder"))
    }

    @Test func discoveryIsRecursiveBoundedAndInPathOrder() throws {
        let folder = try TemporaryFolder()
        for name in ["b.so", "a/x.so", "a/b/c/d/deep.so", "a/b/c/d/e/too-deep.so", "notes.txt"] {
            try folder.write("p/" + name, "")
        }
        let found = try PluginDiscovery.libraries(in: folder.file("p")).map {
            String($0.dropFirst(folder.file("p").count + 1))
        }
        #expect(found == ["a/b/c/d/deep.so", "a/x.so", "b.so"])
    }

    @Test func theCLIPrintsLoadFailuresAndStillRenders() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins()
        try "garbage".write(toFile: plugins + "/libGarbage.so", atomically: true, encoding: .utf8)
        let result = try floorhost(["--plugins", plugins, Repo.path("Examples/home.json")])
        #expect(result.status == 0)
        #expect(result.stderr.contains("libGarbage.so: not loadable as a shared object"))
        #expect(result.stdout.contains("猜你喜欢 For you"))
    }
}
