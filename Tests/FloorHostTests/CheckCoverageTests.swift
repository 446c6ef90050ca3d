import FloorCheck
import FloorSession
import Foundation
import Testing

/// `floorhost check` fails whenever a render would (issue 9, item 9): it makes every call a render makes
/// (cell selectors into a canvas, tappable items, every item's action, besides decode, expand, heights and
/// extend), under the same supervisor, and any error, a plugin's included, makes it exit 1.
struct CheckCoverageTests {
    let folder: TemporaryFolder
    let plugins: String

    init() throws {
        folder = try TemporaryFolder("checkcoverage")
        plugins = try folder.installShippedPlugins(["Title"])
        try compileCPlugin(to: plugins + "/libBadge.so", defines: ["CRASHES_ON_DATA"])
        try compileCPlugin("tapper.c", to: plugins + "/libTapper.so")
    }

    /// A Title floor, then `floors` (JSON objects), checked.
    private func check(_ floors: [String], _ extra: [String] = []) throws -> (ProcessResult, String) {
        let all = [#"{"type":"Title","id":"t","title":"Top"}"#] + floors
        let page = try folder.write("page.json", #"{"floors":[\#(all.joined(separator: ","))]}"#)
        let result = try floorhost(
            ["check", "--plugins", plugins, "--plugin-cache", folder.file("scan-cache.json"), page] + extra)
        return (result, page)
    }

    @Test func aHealthyPageWithTappableRowsPasses() throws {
        let (result, _) = try check([
            #"{"type":"Tapper","id":"tap","text":"fine"}"#, #"{"type":"Badge","id":"b","text":"fine"}"#,
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix("ok: 1 page checked, no problems\n"), "\(result.stdout)")
    }

    @Test(arguments: [
        (#"{"type":"Badge","id":"x","text":"crash:cell"}"#, "crashed with SIGSEGV in its cell selector"),
        (#"{"type":"Tapper","id":"x","text":"crash:cell"}"#, "crashed with SIGSEGV in its cell selector"),
        (#"{"type":"Tapper","id":"x","text":"crash:tappable"}"#, "crashed with SIGSEGV in its tappable-items selector"),
        (#"{"type":"Tapper","id":"x","text":"crash:action"}"#, "crashed with SIGSEGV in its action selector"),
    ])
    func aCrashInACallOnlyARenderMadeFailsCheck(floor: String, what: String) throws {
        let (result, page) = try check([floor, #"{"type":"Tapper","id":"after","text":"fine"}"#])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("error: \(page):1:52: floors[1] (floor 'x'): not shown: plugin "), "\(result.stdout)"
        )
        #expect(result.stdout.contains("\(what) on this floor (shown as a placeholder)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("1 error in 1 page"), "\(result.stdout)")
    }

    @Test func aHangInACellSelectorFailsCheck() throws {
        let (result, page) = try check(
            [#"{"type":"Tapper","id":"x","text":"hang:cell"}"#], ["--plugin-call-timeout", "1"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "error: \(page):1:52: floors[1] (floor 'x'): not shown: plugin com.floorkit.test.tapper hung (no answer for 1 s) in its cell selector"
            ),
            "\(result.stdout)")
    }

    @Test func aHangInAnActionFailsCheck() throws {
        let (result, _) = try check(
            [#"{"type":"Tapper","id":"x","text":"hang:action"}"#], ["--plugin-call-timeout", "1"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("hung (no answer for 1 s) in its action selector"), "\(result.stdout)")
    }

    @Test func aRefusedRegistrationFailsCheck() throws {
        try compileCPlugin(
            to: plugins + "/libWrongSignature.so",
            defines: [
                "PLUGIN_ID=\"com.floorkit.test.wrongsig\"", "FLOOR_TYPE=\"WrongSig\"", "ROW_TYPE=\"WrongSigRow\"",
                "HEIGHT_SIGNATURE=\"i(ppQd)\"",
            ])
        let (result, _) = try check([])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stderr.contains("error: \(plugins)/libWrongSignature.so: com.floorkit.test.wrongsig: "),
            "\(result.stderr)")
        #expect(result.stdout.contains("1 error (1 in plugins, on stderr)"), "\(result.stdout)")
        #expect(!result.stdout.contains("ok:"))
    }

    @Test func aPluginThatFailedToLoadFailsCheck() throws {
        try compileCPlugin(
            to: plugins + "/libFuture.so",
            defines: [
                "PLUGIN_ID=\"com.floorkit.test.future\"", "FLOOR_TYPE=\"Future\"", "ROW_TYPE=\"FutureRow\"",
                "ABI_MAJOR=2",
            ])
        for isolation in [[], ["--no-plugin-isolation"]] {
            let (result, _) = try check([], isolation)
            #expect(result.status == 1, "\(isolation): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("error: \(plugins)/libFuture.so: plugin ABI 2."), "\(result.stderr)")
            #expect(result.stdout.contains("1 error (1 in plugins, on stderr) in 1 page"), "\(result.stdout)")
        }
    }

    @Test func checkDrawsEveryRowAndPerformsEveryActionInProcess() throws {
        let host = try FloorHost(pluginFolder: plugins)
        let page = try folder.write(
            "calls.json",
            #"{"floors":[{"type":"Tapper","id":"a","text":"one"},{"type":"Tapper","id":"b","text":"two"},{"type":"Title","id":"t","title":"x"}]}"#
        )
        let check = PageCheck.run(file: page, registry: host.registry)
        #expect(check.problems.isEmpty, "\(check.problems)")
        // Measured by the adapter check builds: one cell call a row, as a render draws them.
        let adapter = try host.layout(page: page, width: 375)
        #expect(adapter.stats.cellCalls == 0)
        PageCheck.exerciseRows(of: adapter)
        #expect(adapter.stats.cellCalls == adapter.rowCount)
    }
}
