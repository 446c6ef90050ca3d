import FloorConform
import Testing

@testable import FloorRender

// A text grid line's frame shape (TextGrid.FrameShape: the frames and rules drawn on it while nothing else was)
// says what bytes it writes: the text preview's writer writes each shape once and the next lines of that shape
// from those bytes. Random draws (texts plain, wide, marked, cut, centred, clipped, struck; frames, rules,
// fills; clips, resets) on many grids: every line of one shape writes the same bytes, plain and styled.

@Suite struct FrameShapeTests {
    static let texts = [
        "", "a", "Stainless steel bottle 750ml", "¥199.00", "[0]", "无线蓝牙耳机 Pro", "e\u{301}te\u{301}",
        "tab\there", String(repeating: "宽", count: 50), "│", "─",
    ]

    /// A grid's lines, plain and styled.
    static func written(_ grid: TextGrid, line: Int) -> [[UInt8]] {
        [false, true].map { styled in
            var bytes: [UInt8] = []
            grid.write(line: line, to: &bytes, styled: styled)
            return bytes
        }
    }

    /// Random calls on a grid `columns` wide.
    static func draw(on grid: inout TextGrid, _ random: inout SeededRandom) {
        let columns = grid.columns
        let column = random.int(-3...(columns + 3))
        let line = random.int(-1...grid.lines)
        let style = random.chance(70) ? [] : TextStyle(rawValue: UInt8(random.int(0...15)))
        switch random.int(0...99) {
        case 0..<25:
            var text = random.pick(texts)
            _ = text.withUTF8 {
                grid.text(
                    utf8: $0, escapingControls: true, column: column, line: line, maxColumns: random.int(0...columns),
                    center: random.chance(20), style: style)
            }
        case 25..<30:
            grid.text(random.pick(texts), column: column, line: line, maxColumns: random.int(0...columns))
        case 30..<80:
            // Frames and rules, often the same ones again (as cards repeat them).
            let (w, h) = random.chance(60) ? (19, 8) : (random.int(-1...columns), random.int(-1...4))
            grid.box(column: random.chance(60) ? 2 : column, line: line, width: w, height: h, style: style)
        case 80..<86:
            grid.fill(
                column: column, line: line, width: random.int(0...8), height: random.int(0...3), scalar: "░",
                style: style)
        case 86..<96:
            grid.clip(to: random.chance(40) ? nil : (column, line, random.int(-1...columns), random.int(-1...6)))
        default:
            grid.reset(lines: random.int(0...10))
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func linesOfOneShapeWriteTheSameBytes(seed: UInt64) {
        var random = SeededRandom(state: seed)
        var seen: [TextGrid.FrameShape: [[UInt8]]] = [:]
        var shaped = 0
        for round in 0..<400 {
            var grid = TextGrid(columns: [1, 24, 75][round % 3], lines: 10)
            for _ in 0..<random.int(1...12) { Self.draw(on: &grid, &random) }
            for line in 0..<grid.lines {
                guard let shape = grid.frameShape(line: line) else { continue }
                shaped += 1
                let bytes = Self.written(grid, line: line)
                if let before = seen[shape] {
                    #expect(before == bytes, "shape \(shape)")
                } else {
                    seen[shape] = bytes
                }
            }
        }
        // Shapes met again, not only once each: the property is tested on repeats.
        #expect(shaped - seen.count >= 100)
    }

    /// A product card's frame sides, bottom edge and rule have shapes, the same from card to card; its lines with
    /// a title, a price or the picture's name have none.
    @Test func aCardsFrameLinesHaveShapes() {
        func card(_ name: String, title: String) -> TextGrid {
            var grid = TextGrid(columns: 75, lines: 10)
            grid.clip(to: (0, 0, 75, 10))
            grid.box(column: 2, line: 0, width: 19, height: 8)
            var label = "[\(name)]"
            _ = label.withUTF8 {
                grid.text(utf8: $0, escapingControls: true, column: 3, line: 3, maxColumns: 17, center: true)
            }
            var title = title
            _ = title.withUTF8 { grid.text(utf8: $0, escapingControls: true, column: 23, line: 0, maxColumns: 50) }
            grid.box(column: 2, line: 9, width: 72, height: 1)
            return grid
        }
        let a = card("0", title: "銶谮鿺刘 vpna")
        let b = card("1", title: "Stainless steel bottle")
        for line in [1, 2, 4, 5, 6, 7, 9] {
            #expect(a.frameShape(line: line) != nil)
            #expect(a.frameShape(line: line) == b.frameShape(line: line))
        }
        #expect([0, 3, 8].allSatisfy { a.frameShape(line: $0) == nil })
        #expect(a.frameShape(line: 1) == a.frameShape(line: 6))
        #expect(a.frameShape(line: 1) != a.frameShape(line: 7))
        #expect(a.frameShape(line: 7) != a.frameShape(line: 9))
    }
}
