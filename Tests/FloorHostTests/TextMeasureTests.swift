import CFloorABI
import FloorRender
import FloorSession
import Foundation
import HostContract
import Testing

/// ABI 1.4's measure_text: the width of a line in points is what the text backend's columns say (5 points
/// a display column, controls as their \uXXXX escape), from the canvas in a cell and from the host table in
/// a height calculator, whatever the output.
struct TextMeasureTests {
    static let samples = ["Stainless steel water bottle 750ml", "无线蓝牙耳机 Pro", "e\u{301}te\u{301}", "tab\there", ""]

    /// The columns the text backend fills drawing `text`, times 5.
    static func drawnPoints(_ text: String) -> Double {
        let backend = TextRenderer.GridBackend(TextGrid(columns: 200, lines: 1), pointsPerColumn: 5)
        backend.text(text, x: 0, y: 0, maxWidth: 1000, style: 0)
        return Double(DisplayWidth.of(backend.grid.render()[0])) * 5
    }

    @Test(arguments: samples) func theCanvasMeasuresWhatTheTextBackendDraws(text: String) {
        var measured = -1.0
        _ = RecordingCanvas.record(width: 375, height: 12) { canvas in
            measured = canvas.pointee.measure_text(canvas, text, FLOOR_TEXT_BOLD)
        }
        #expect(measured == Self.drawnPoints(text))
    }

    /// A C plugin whose height is the host table's measure of its text: the height calculator (no canvas)
    /// gets the same number, and the cell's struck text fills exactly those columns.
    @Test func aHeightCalculatorMeasuresThroughTheHostTable() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins(["Title"])
        try compileCPlugin(to: plugins + "/libBadge14.so", defines: ["USE_ABI_1_4"])
        let host = try FloorHost(pluginFolder: plugins)
        let page = try folder.write("p.json", #"{"floors":[{"type":"Badge","id":"b","text":"无线 Pro"}]}"#)
        let adapter = try host.layout(page: page, width: 375)
        #expect(adapter.describe(row: 0).height == Self.drawnPoints("无线 Pro"))  // 8 columns: 40 points
        #expect(adapter.describe(row: 0).height == 40)
        let text = TextRenderer.render(adapter, columns: 75)
        #expect(text.contains("无\u{336}线\u{336} \u{336}P\u{336}r\u{336}o\u{336}"), "\(text)")
    }
}
