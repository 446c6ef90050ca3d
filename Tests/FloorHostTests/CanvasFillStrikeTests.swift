import CFloorABI
import FloorRender
import FloorSession
import Foundation
import Testing

/// ABI 1.4's `fill` and FLOOR_TEXT_STRIKE, as each backend draws them: the text grid shades cells and
/// strikes with U+0336 (plain) or SGR 9 (styled); JSON records `{"op":"fill",...}` and `"strike":true`;
/// HTML gives a `div.fill` with its tone and a `strike` class styled line-through. That conform's recorder
/// keeps both calls as they were made is the SDK's RecordingCanvasTests (SDK/Tests/HostContractTests).
struct CanvasFillStrikeTests {
    @Test func textShadesAFillAndStrikesEachCharacter() {
        let backend = TextRenderer.GridBackend(TextGrid(columns: 20, lines: 2), pointsPerColumn: 5)
        backend.fill(x: 0, y: 0, width: 50, height: 12, tone: FLOOR_TONE_ACCENT)
        backend.fill(x: 0, y: 12, width: 20, height: 12, tone: FLOOR_TONE_SUBTLE)
        backend.text("¥99", x: 50, y: 12, maxWidth: 50, style: FLOOR_TEXT_STRIKE | FLOOR_TEXT_MUTED)
        let lines = backend.grid.render()
        #expect(lines[0] == String(repeating: "▓", count: 10))
        #expect(lines[1] == "░░░░      ¥\u{336}9\u{336}9\u{336}")
        #expect(backend.grid.clippedDraws == 0)
        var styled: [UInt8] = []
        backend.grid.write(line: 1, to: &styled, styled: true)
        let line = String(decoding: styled, as: UTF8.self)
        #expect(line.contains("\u{1B}[0;9;90m¥99"), "\(line.debugDescription)")  // SGR 9, no U+0336
        #expect(!line.contains("\u{336}"))
    }

    @Test func jsonRecordsTheFillAndTheStrike() throws {
        let canvas = JSONCanvas()
        canvas.fill(x: 1, y: 2, width: 30, height: 12, tone: FLOOR_TONE_MUTED)
        canvas.fill(x: 0, y: 0, width: 1, height: 1, tone: 99)  // unknown: subtle
        canvas.text("¥99", x: 0, y: 0, maxWidth: 40, style: FLOOR_TEXT_STRIKE)
        canvas.text("¥79", x: 0, y: 0, maxWidth: 40, style: FLOOR_TEXT_ACCENT)
        let draws = try #require(
            try JSONSerialization.jsonObject(
                with: Data(("[" + String(decoding: canvas.out.bytes, as: UTF8.self) + "]").utf8)) as? [[String: Any]])
        #expect(draws[0]["op"] as? String == "fill")
        #expect(number(draws[0]["x"]) == 1 && number(draws[0]["width"]) == 30 && number(draws[0]["height"]) == 12)
        #expect(draws[0]["tone"] as? String == "muted")
        #expect(draws[1]["tone"] as? String == "subtle")
        #expect(draws[2]["strike"] as? Bool == true)
        #expect(draws[3]["strike"] == nil)  // only struck text says so
    }

    @Test func htmlStrikesWithLineThroughAndFillsWithABackground() {
        let canvas = HTMLCanvas()
        canvas.fill(x: 0, y: 0, width: 30, height: 12, tone: FLOOR_TONE_ACCENT)
        canvas.text("¥99", x: 0, y: 0, maxWidth: 40, style: FLOOR_TEXT_STRIKE | FLOOR_TEXT_MUTED)
        #expect(
            canvas.html.contains("<div class=\"fill accent\" style=\"left:0px;top:0px;width:30px;height:12px\"></div>"),
            "\(canvas.html)")
        #expect(canvas.html.contains("<span class=\"t muted strike\""))
        #expect(HTMLRenderer.stylesheet.contains(".t.strike{text-decoration:line-through}"))
        #expect(HTMLRenderer.stylesheet.contains(".fill.accent{background:"))
    }
}
