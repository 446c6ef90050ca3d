import CFloorABI
import FloorRender
import FloorSession
import Foundation
import HostContract
import Testing

/// ABI 1.5 part 1 adds real text (text styles, layout_text, text_block; docs/ABI.md, "Text layout"): a
/// plugin built against 1.4 (badge.c with its 1.4 additions, which never names a text style) keeps its cell
/// metrics exactly, measuring and drawing 12-point lines beside a 1.5-style plugin (Title) on one page.
struct ABI14CompatibilityTests {
    @Test func aPluginBuiltAgainst14KeepsItsTwelvePointLinesBesideRealText() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins(["Title"])
        try compileCPlugin(to: plugins + "/libOld14.so", defines: ["USE_ABI_1_4", "ABI_MINOR=4"])
        let host = try FloorHost(pluginFolder: plugins)
        #expect(host.loadDiagnostics.isEmpty, "\(host.loadDiagnostics)")
        #expect(host.plugins.map(\.abiMinor).sorted() == [4, 5], "a 1.4 badge beside the shipped 1.5 Title")
        let page = try folder.write(
            "p.json",
            #"{"floors":[{"type":"Badge","id":"b","text":"old badge"},{"type":"Title","id":"t","title":"New title"}]}"#)
        let adapter = try host.layout(page: page, width: 375)
        // The badge's height is its host-table measure_text in a 1.4 style: 5 points a character, as in 1.4.
        #expect(adapter.describe(row: 0).type == "BadgeRow")
        #expect(adapter.describe(row: 0).height == 45)
        let badge = RecordingCanvas.record(width: 375, height: 45) { adapter.drawCell(row: 0, into: $0) }
        #expect(
            badge == [
                .box(x: 0, y: 0, width: 375, height: 45),
                .fill(x: 0, y: 0, width: 375, height: 12, tone: UInt32(FLOOR_TONE_ACCENT)),
                .text("old badge", x: 0, y: 0, maxWidth: 45, style: FLOOR_TEXT_STRIKE),
            ])
        // The Title beside it is real type: a 22-point headline line with 10 points above and below.
        let title = try #require((0..<adapter.rowCount).first { adapter.describe(row: $0).type == "TitleBar" })
        #expect(adapter.describe(row: title).height == 42)
        let drawn = RecordingCanvas.record(width: 375, height: 42) { adapter.drawCell(row: title, into: $0) }
        #expect(drawn.contains { if case .textBlock("New title", _, 10, _, 2, _) = $0 { true } else { false } })
        // Every output still draws the badge on its 12-point line.
        let text = TextRenderer.render(adapter, columns: 75)
        #expect(text.contains("o̶l̶d̶ ̶b̶a̶d̶g̶e̶") || text.contains("old badge"), "\(text)")
        let canvas = JSONCanvas()
        adapter.drawCell(row: 0, into: canvas)
        let ops = String(decoding: canvas.out.bytes, as: UTF8.self)
        #expect(ops.contains(#""op":"text""#) && !ops.contains("textBlock"), "\(ops)")
    }
}
