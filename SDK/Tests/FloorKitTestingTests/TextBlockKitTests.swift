import CFloorABI
import FloorKitTesting
import HostContract
import Testing

@testable import FloorKit

/// ABI 1.5's text calls through the kit (docs/ABI.md, "Text layout"): the kit links the host's engine, so
/// a height calculator's TextMetrics.layout and a cell's Canvas.textBlock give floorhost's lines and heights.
struct TextBlockKitTests {
    static let short = #"{"type":"CaptionCards","id":"c","items":[{"id":"a","title":"Earbuds"}]}"#
    static let long =
        #"{"type":"CaptionCards","id":"c","items":[{"id":"a","title":"Wireless noise cancelling earbuds with a charging case, three sizes of silicone tips and a soft travel pouch"}]}"#

    @Test func aHeightFollowsTheTextsLinesInTheHostsEngine() throws {
        let host = try FloorTestHost.load(cardsPluginEntry)
        let short = try host.decode(Self.short)
        #expect(try short.height(row: 0, width: 375) == 24 + 20)
        let long = try host.decode(Self.long)
        #expect(try long.height(row: 0, width: 375) == 24 + 40, "two lines at most")
        #expect(try long.height(row: 0, width: 2000) == 24 + 20)
        // The same number the host's own function gives (HostContract, which floorhost calls).
        let title =
            "Wireless noise cancelling earbuds with a charging case, three sizes of silicone tips and a soft travel pouch"
        let hostBlock = HostTextLayout.block(title, style: TextFont.body.rawValue, maxWidth: 351, maxLines: 2)
        #expect(hostBlock.lines.count == 2 && hostBlock.truncated)
        #expect(try long.height(row: 0, width: 375) == 24 + hostBlock.height)
    }

    @Test func theCellDrawsTheLinesTheHeightMeasured() throws {
        let long = try FloorTestHost.load(cardsPluginEntry).decode(Self.long)
        let drawing = try long.draw(row: 0, width: 375)
        #expect(drawing.lines.count == 1)
        #expect(drawing.lines[0].hasPrefix("text_block x 12 y 12 max_width 351 max_lines 2 body \"Wireless"))
        let lines = try #require(drawing.textBlockLines.first)
        #expect(lines.count == 2 && lines[1].hasSuffix("\u{2026}"))
        #expect(lines[0].hasPrefix("Wireless noise cancelling"))
    }

    @Test func aBlockOnAHostBeforeABI15IsDrawnInCellLinesWithText() {
        // A 1.4 host's canvas ends after fill: the SDK wraps in cells and draws each line with text().
        let size14 = MemoryLayout<floor_canvas_t>.offset(of: \floor_canvas_t.layout_text)!
        let drawn = RecordingCanvas.record(width: 100, height: 60, structSize: size14) { raw in
            let canvas = Canvas(raw: raw)
            #expect(!canvas.hasTextBlocks)
            canvas.textBlock("alpha beta gamma delta epsilon", x: 0, y: 0, width: 60, maxLines: 2, font: .headline)
        }
        #expect(
            drawn.map(DrawingText.line) == [
                #"text x 0 y 0 max_width 60 "alpha beta""#, #"text x 0 y 12 max_width 60 "gamma delta…""#,
            ])
    }
}
