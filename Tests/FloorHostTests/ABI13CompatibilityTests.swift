import CFloorABI
import FloorRender
import FloorSession
import Foundation
import HostContract
import Testing

/// ABI 1.4 appends measure_text and fill to the canvas and measure_text to the host table: a plugin built
/// against 1.3 (which never reads them) loads and draws beside 1.4 ones, and the Swift SDK, given a 1.3
/// host's shorter canvas, reads nothing past its struct_size and falls back (no struck original price).
struct ABI13CompatibilityTests {
    @Test func aPluginBuiltAgainst13LoadsAndDrawsBeside14Ones() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins(["Title"])
        try compileCPlugin(to: plugins + "/libOld13.so", defines: ["ABI_MINOR=3", "WITH_SCHEMA"])
        let host = try FloorHost(pluginFolder: plugins)
        #expect(host.loadDiagnostics.isEmpty, "\(host.loadDiagnostics)")
        #expect(host.plugins.map(\.abiMinor).sorted() == [3, 5])
        let page = try folder.write(
            "p.json",
            #"{"floors":[{"type":"Badge","id":"b","text":"old badge"},{"type":"Title","id":"t","title":"T"}]}"#)
        let adapter = try host.layout(page: page, width: 375)
        #expect(adapter.describe(row: 0).type == "BadgeRow")
        #expect(adapter.describe(row: 0).height == 36)
        #expect(TextRenderer.render(adapter, columns: 75).contains("old badge"))
    }

    @Test func theSDKOnA13CanvasLeavesTheOriginalPriceOutAndStillDrawsTheCard() throws {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins(["ProductFeed"]))
        let page = try folder.write(
            "p.json",
            #"{"floors":[{"type":"ProductFeed","id":"f","items":[{"id":"p1","title":"Mug","price":"¥59.00","originalPrice":"¥89.00","img":"https://x/m.jpg"}]}]}"#
        )
        let adapter = try host.layout(page: page, width: 375)
        let card = try #require((0..<adapter.rowCount).first { adapter.describe(row: $0).type == "ProductCard" })
        let size13 = MemoryLayout<floor_canvas_t>.offset(of: \floor_canvas_t.measure_text)!
        let old = RecordingCanvas.record(width: 375, height: 108, structSize: size13) {
            adapter.drawCell(row: card, into: $0)
        }
        let texts = old.compactMap {
            if case .text(let s, _, _, _, let style) = $0 { return (s, style) } else { return nil }
        }
        #expect(texts.map(\.0) == ["Mug", "¥59.00"])
        #expect(texts.allSatisfy { $0.1 & FLOOR_TEXT_STRIKE == 0 })
        // A current canvas: the struck original price is a text block (ABI 1.5 text styles).
        let new = RecordingCanvas.record(width: 375, height: 108) { adapter.drawCell(row: card, into: $0) }
        #expect(
            new.contains {
                if case .textBlock("¥89.00", _, _, _, _, let style) = $0 {
                    style & FLOOR_TEXT_STRIKE != 0
                } else {
                    false
                }
            })
    }
}
