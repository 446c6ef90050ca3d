import FloorConform
import Testing

@testable import FloorRender

// A text grid line holding only frames and rules keeps them as its shape's calls, not as cells, and a text drawn
// whole there as its bytes (LoneText), until something else is drawn on it (TextGrid.holdsFrames): the text
// preview's frame sides, bottom edges and rules are never drawn into cells, nor its titles', prices' and pictures'
// names. Random draws (FrameShapeTests': texts plain, wide, marked, cut, centred, clipped, struck; frames, rules,
// fills; clips, resets; and plain texts as a text block's lines are drawn), and a card's, on two grids, one
// holding and one drawing everything at once: every line writes the same bytes, plain and styled, in runs and
// cell by cell, and says the same of its blank columns.

@Suite struct HeldFramesTests {
    /// Line `l`'s bytes every way it is written: plain and styled, in runs and cell by cell.
    static func written(_ grid: TextGrid, line l: Int) -> [[UInt8]] {
        [(false, true), (true, true), (false, false), (true, false)].map { styled, inRuns in
            var bytes: [UInt8] = []
            grid.write(line: l, to: &bytes, styled: styled, inRuns: inRuns)
            return bytes
        }
    }

    /// Plain characters (TextBlock.isPlain: printable ASCII, ¢ £ ¥, CJK unified ideographs) and spaces; a line cut
    /// by a line limit ends in "…".
    static let plainPieces = ["a", "Stainless", " ", "  ", "¥199.00", "¢", "£", "无线", "蓝牙耳机", "750ml", "9", "~"]

    /// FrameShapeTests' random calls, or a plain text (a text block's line) placed as a card places its lines:
    /// drawn as plain on the holding grid, as any text on the other.
    static func draw(on holding: inout TextGrid, _ drawing: inout TextGrid, _ random: inout SeededRandom) {
        guard random.chance(35), holding.columns > 0, holding.lines > 0 else {
            var same = random
            FrameShapeTests.draw(on: &holding, &random)
            FrameShapeTests.draw(on: &drawing, &same)
            return
        }
        var text =
            (0..<random.int(1...6)).map { _ in random.pick(plainPieces) }.joined() + (random.chance(15) ? "…" : "")
        let column = random.int(-2...holding.columns)
        let line = random.int(-1...holding.lines)
        let maxColumns = random.chance(15) ? random.int(0...holding.columns) : holding.columns - max(0, column)
        let center = random.chance(20)
        let style = random.chance(80) ? [] : TextStyle(rawValue: UInt8(random.int(0...15)))
        let name = text
        text.withUTF8 { utf8 in
            let held = holding.text(
                utf8: utf8, plain: true, escapingControls: true, column: column, line: line, maxColumns: maxColumns,
                center: center, style: style)
            let drawn = drawing.text(
                utf8: utf8, escapingControls: true, column: column, line: line, maxColumns: maxColumns, center: center,
                style: style)
            #expect(held == drawn, "\(name) at \(column), \(line)")
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func heldFramesWriteWhatDrawnFramesWrite(seed: UInt64) {
        var random = SeededRandom(state: seed)
        var held = 0
        var lone = 0
        var differing: [String] = []
        for round in 0..<1_600 {
            var holding = TextGrid(columns: [1, 24, 75][round % 3], lines: 10)
            var drawing = holding
            drawing.holdsFrames = false
            for _ in 0..<random.int(1...12) { Self.draw(on: &holding, &drawing, &random) }
            for line in 0..<holding.lines {
                if holding.frameShape(line: line) != nil { held += 1 }
                if holding.hasLoneText(line: line) { lone += 1 }
                if Self.written(holding, line: line) != Self.written(drawing, line: line) {
                    differing.append(
                        "round \(round) line \(line): "
                            + String(decoding: Self.written(holding, line: line)[0], as: UTF8.self) + " against "
                            + String(decoding: Self.written(drawing, line: line)[0], as: UTF8.self))
                }
                let start = random.int(0...holding.columns)
                let range = start..<random.int(start...holding.columns)
                if holding.isBlank(line: line, columns: range) != drawing.isBlank(line: line, columns: range) {
                    differing.append("round \(round) line \(line): blank \(range)")
                }
            }
            if holding.render() != drawing.render() { differing.append("round \(round): rendered") }
        }
        #expect(held >= 500)
        #expect(lone >= 300)
        #expect(differing.isEmpty, "\(differing.count) differ, first: \(differing.prefix(3))")
    }

    /// A product card's frame lines are held (a shape each), its title, price and picture-name lines drawn; both
    /// write what a grid drawing every frame at once writes, and drawing on a held line draws its frames first.
    @Test func aCardsFramesAreHeldUntilATextLandsBesideThem() {
        func card(holdingFrames: Bool) -> TextGrid {
            var grid = TextGrid(columns: 75, lines: 10)
            grid.holdsFrames = holdingFrames
            grid.clip(to: (0, 0, 75, 10))
            grid.box(column: 2, line: 0, width: 19, height: 8)
            for (text, column, line) in [("[0]", 10, 3), ("銶谮鿺刘 vpna", 23, 0), ("¥1021.83", 23, 4)] {
                var text = text
                _ = text.withUTF8 {
                    grid.text(utf8: $0, escapingControls: true, column: column, line: line, maxColumns: 50)
                }
            }
            grid.box(column: 2, line: 9, width: 72, height: 1)
            grid.fill(column: 5, line: 6, width: 3, height: 1, scalar: "░")
            return grid
        }
        let held = card(holdingFrames: true)
        let drawn = card(holdingFrames: false)
        #expect([1, 2, 5, 7, 9].allSatisfy { held.frameShape(line: $0) != nil })
        #expect([0, 3, 4, 6, 8].allSatisfy { held.frameShape(line: $0) == nil })
        for line in 0..<10 {
            #expect(Self.written(held, line: line) == Self.written(drawn, line: line), "line \(line)")
        }
        #expect(held.render()[6] == "  │  ░░░            │")
        #expect(held.render()[9] == "  " + String(repeating: "─", count: 72))
        #expect(!held.isBlank(line: 7, columns: 2..<3) && held.isBlank(line: 7, columns: 21..<75))
    }
}
