import CFloorABI
import FloorRender
import HostContract
import Testing

/// The text backend's `text_block` (docs/ABI.md, "Text layout"): the terminal draws the lines the host laid
/// out, one a terminal line from the line of the block's top, each cut to the block's width in cells, so
/// it breaks a title where json, html and the preview do and lays no text out a second time.
struct TextBlockSketchTests {
    static let samples: [(String, UInt32, Double, UInt32)] = [
        ("显示器 Backpack Pro Coffee 4K 750ml RGB", FLOOR_TEXT_BODY, 251, 2),
        ("Kids' building blocks 500pcs with storage box", FLOOR_TEXT_BODY, 163, 2),
        ("服饰 Fashion", FLOOR_TEXT_CAPTION | FLOOR_TEXT_CENTER, 71, 1),
        ("无线蓝牙耳机 Pro", FLOOR_TEXT_HEADLINE | FLOOR_TEXT_BOLD, 343, 2),
        ("tab\there, a line\nand an escape \u{1B} after it", FLOOR_TEXT_FOOTNOTE, 200, 0),
        ("Stainless steel water bottle 750ml", FLOOR_TEXT_CELL, 100, 3),
    ]

    /// The grid's lines from `top` on, after drawing `text` at (x, y) both ways the canvas reaches the backend.
    static func drawn(
        _ text: String, style: UInt32, maxWidth: Double, maxLines: UInt32, x: Double = 10, y: Double = 8
    ) -> (bytes: [String], drawing: [String]) {
        let fromBytes = TextRenderer.GridBackend(TextGrid(columns: 80, lines: 12), pointsPerColumn: 5)
        var utf8 = text
        utf8.withUTF8 {
            fromBytes.textBlock(
                utf8: UnsafeRawBufferPointer($0), x: x, y: y, maxWidth: maxWidth, maxLines: maxLines, style: style)
        }
        let fromDrawing = TextRenderer.GridBackend(TextGrid(columns: 80, lines: 12), pointsPerColumn: 5)
        fromDrawing.textBlock(
            TextBlockDrawing(text: text, x: x, y: y, maxWidth: maxWidth, maxLines: maxLines, style: style))
        return (fromBytes.grid.render(), fromDrawing.grid.render())
    }

    @Test(arguments: samples.indices) func theTerminalDrawsTheHostsLines(sample: Int) {
        let (text, style, maxWidth, maxLines) = Self.samples[sample]
        let block = HostTextLayout.block(text, style: style, maxWidth: maxWidth, maxLines: Int(maxLines))
        let (bytes, drawing) = Self.drawn(text, style: style, maxWidth: maxWidth, maxLines: maxLines)
        #expect(bytes == drawing, "the bytes and the String draw alike")
        let columns = Int(maxWidth / 5)
        // y 8 is the grid's line 0 (12-point lines); x 10 is column 2.
        for (i, line) in block.lines.enumerated() {
            let shown = ControlCharacters.escaped(line.text)
            let expected =
                style & FLOOR_TEXT_CENTER != 0
                ? String(repeating: " ", count: 2 + (columns - DisplayWidth.of(shown)) / 2) + shown
                : "  " + shown
            #expect(bytes[i] == expected, "line \(i) of \(text.debugDescription)")
        }
        let past = bytes[block.lines.count...].filter { !$0.isEmpty }
        #expect(past.isEmpty, "nothing past the host's lines: \(bytes)")
    }

    /// A title the real type breaks in two shows on two terminal lines, though its cells would fit on one:
    /// the card is as tall as two lines because the host broke it there.
    @Test func aTitleTheHostBreaksInTwoShowsOnTwoLines() {
        let title = "显示器 Backpack Pro Coffee 4K 750ml RGB"
        let (lines, _) = Self.drawn(title, style: FLOOR_TEXT_BODY, maxWidth: 251, maxLines: 2)
        #expect(DisplayWidth.of(title) <= 50, "the whole title fits the block's 50 columns")
        #expect(lines[0] == "  显示器 Backpack Pro Coffee 4K")
        #expect(lines[1] == "  750ml RGB")
    }

    /// A block the host cut at its line limit ends in the host's ellipsis, as the phone shows it.
    @Test func aCutBlockShowsTheHostsEllipsis() {
        let (lines, _) = Self.drawn("服饰 Fashion", style: FLOOR_TEXT_CAPTION, maxWidth: 71, maxLines: 1)
        let block = HostTextLayout.block("服饰 Fashion", style: FLOOR_TEXT_CAPTION, maxWidth: 71, maxLines: 1)
        #expect(block.truncated)
        #expect(lines[0] == "  " + block.lines[0].text)
        #expect(lines[0].hasSuffix("…"))
    }

    /// The block's lines go on consecutive terminal lines from the line of its top (y 30 is line 2),
    /// whatever the style's line height.
    @Test func linesStartOnTheLineOfTheBlocksTop() {
        let text = "one two three four five six seven eight nine ten eleven twelve"
        let block = HostTextLayout.block(text, style: FLOOR_TEXT_TITLE, maxWidth: 120, maxLines: 0)
        #expect(block.lines.count >= 3)
        let (lines, _) = Self.drawn(text, style: FLOOR_TEXT_TITLE, maxWidth: 120, maxLines: 0, x: 0, y: 30)
        #expect(lines[0].isEmpty && lines[1].isEmpty)
        for (i, line) in block.lines.enumerated() { #expect(lines[2 + i] == line.text) }
    }
}
