import FloorSession
import Foundation
import Testing

/// The ABI is language-neutral: a plugin written in C, compiled with `cc -shared` against floor_abi.h,
/// loads and renders beside the Swift ones.
struct CPluginTests {
    @Test func aCPluginLoadsAndRenders() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins(["Title"])
        try compileCPlugin(to: plugins + "/libBadge.so")
        let page = try folder.write(
            "page.json",
            #"{"floors":[{"type":"Badge","id":"hello","text":"Hello from C 你好"},{"type":"Title","id":"t","title":"Swift below"}]}"#
        )

        let json = try floorhost(["--plugins", plugins, page, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let rows = try #require(try jsonObject(json.stdout)["rows"] as? [[String: Any]])
        #expect(rows.map { $0["type"] as? String } == ["BadgeRow", "TitleBar"])
        #expect(rows.first?["height"] as? Int == 36)
        let diagnostics = try #require(try jsonObject(json.stdout)["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["message"] as? String } == ["com.floorkit.test.badge: badge plugin registered"])

        let text = try floorhost(["--plugins", plugins, page])
        #expect(text.status == 0)
        #expect(text.stdout.contains("│ Hello from C 你好"))
        #expect(text.stdout.contains("Swift below"))
    }

    @Test func aCDecoderRefusalIsReportedWithItsPath() throws {
        let folder = try TemporaryFolder()
        let plugins = folder.file("plugins")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try compileCPlugin(to: plugins + "/libBadge.so")
        let page = try folder.write("page.json", #"{"floors":[{"type":"Badge","id":"empty"}]}"#)
        let host = try FloorHost(pluginFolder: plugins)
        let adapter = try host.layout(page: page, width: 375)
        #expect(adapter.describe(row: 0).type == "FloorPlaceholder")
        let warning = try #require(adapter.page.diagnostics.first)
        #expect(warning.path == "floors[0].text")
        #expect(
            warning.message.contains(
                "floors[0].text (floor 'empty'): a badge needs a \"text\" string (plugin com.floorkit.test.badge)"))
    }
}
