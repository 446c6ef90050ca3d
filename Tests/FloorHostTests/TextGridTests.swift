import FloorConform
import FloorRender
import FloorSession
import HostContract
import Testing

// Unit tests for `TextGrid` (the block of terminal lines the text renderer draws into): cutting with "…",
// centring, clipping and its counter, boxes, wide characters split by later drawing, and robustness
// against absurd coordinates. DisplayWidth's own tests are the SDK's (SDK/Tests/HostContractTests).

// MARK: - Helpers

/// The Unicode scalars of each line, so that "e\u{301}" and "é" are not confused (String == would).
private func scalarLines(_ grid: TextGrid) -> [[Unicode.Scalar]] {
    grid.render().map { Array($0.unicodeScalars) }
}

/// Lines whose display width exceeds the grid's columns (should always be empty).
private func overwideLines(_ grid: TextGrid) -> [String] {
    grid.render().filter { DisplayWidth.of($0) > grid.columns }
}

/// The display column at which the last occurrence of `scalar` starts in `line`, or nil.
private func displayColumn(ofLast scalar: Unicode.Scalar, in line: String) -> Int? {
    let scalars = Array(line.unicodeScalars)
    guard let index = scalars.lastIndex(of: scalar) else { return nil }
    return scalars[..<index].reduce(0) { $0 + DisplayWidth.of($1) }
}

// MARK: - TextGrid: drawing text

struct TextGridTextTests {
    /// A new grid is blank: one empty string per line. Negative sizes are 0.
    @Test func blankGrid() {
        #expect(TextGrid(columns: 5, lines: 3).render() == ["", "", ""])
        let degenerate = TextGrid(columns: -3, lines: -1)
        #expect(degenerate.columns == 0 && degenerate.lines == 0)
        #expect(degenerate.render() == [])
        #expect(TextGrid(columns: 0, lines: 2).render() == ["", ""])
    }

    /// Text lands at its column and line; cells before it are spaces, trailing blanks are trimmed.
    @Test func textAtAPosition() {
        var grid = TextGrid(columns: 10, lines: 3)
        grid.text("ab", column: 3, line: 1, maxColumns: 5)
        grid.text("中", column: 0, line: 2, maxColumns: 5)
        #expect(grid.render() == ["", "   ab", "中"])
        #expect(grid.clippedDraws == 0)
    }

    /// A draw call answers the columns its text takes, cut and centred, shown by the clip or not (what the
    /// text preview starts a text drawn after it from, TextPlacement); the bytes path and the glyph path
    /// (a mark) answer alike; nothing to draw takes no column.
    @Test func textAnswersTheColumnsItTakes() {
        var grid = TextGrid(columns: 10, lines: 2)
        #expect(grid.text("ab中", column: 2, line: 0, maxColumns: 8) == 2..<6)
        #expect(grid.text("abcdefghij", column: 0, line: 1, maxColumns: 5) == 0..<5)
        #expect(grid.text("ab", column: 0, line: 0, maxColumns: 6, center: true) == 2..<4)
        #expect(grid.text("abc", column: 8, line: 0, maxColumns: 5) == 8..<11)
        #expect(grid.text("abc", column: 0, line: 5, maxColumns: 5) == 0..<3)
        #expect(grid.text("", column: 3, line: 0, maxColumns: 5).isEmpty)
        #expect(grid.text("ab", column: 3, line: 0, maxColumns: 0).isEmpty)
        for text in ["añb", "an\u{303}b"] {
            var utf8 = text
            let taken = utf8.withUTF8 {
                grid.text(utf8: $0, escapingControls: true, column: 1, line: 1, maxColumns: 9)
            }
            #expect(taken == 1..<4, "\(text)")
        }
    }

    /// Text wider than `maxColumns` is cut to exactly `maxColumns`, the last column "…"; text that fits
    /// exactly is not cut. Neither counts as clipping.
    @Test func cutWithEllipsis() {
        var grid = TextGrid(columns: 10, lines: 3)
        grid.text("abcdefghij", column: 0, line: 0, maxColumns: 5)
        grid.text("abcde", column: 0, line: 1, maxColumns: 5)
        grid.text("abcdef", column: 0, line: 2, maxColumns: 1)
        #expect(grid.render() == ["abcd…", "abcde", "…"])
        #expect(grid.clippedDraws == 0)
    }

    /// A wide character never straddles the limit: when one column is left for it, that column is a space
    /// and "…" still ends the text exactly at `maxColumns`.
    @Test func cutAtAWideCharacterBoundary() {
        var grid = TextGrid(columns: 10, lines: 4)
        grid.text("你好世界你好", column: 0, line: 0, maxColumns: 8)  // 你好世 = 6, one column left: space
        grid.text("你好世界你好", column: 0, line: 1, maxColumns: 7)  // 你好世 = 6, then …
        grid.text("你好", column: 0, line: 2, maxColumns: 2)
        grid.text("a你b好c世", column: 0, line: 3, maxColumns: 6)  // a你b = 4, 好 does not fit in 1: space
        #expect(grid.render() == ["你好世 …", "你好世…", " …", "a你b …"])
        #expect(grid.render().map { DisplayWidth.of($0) } == [8, 7, 2, 6])
        #expect(grid.clippedDraws == 0)
    }

    /// With `center`, narrower text is centred in `column..<column+maxColumns`, the odd column on the right.
    @Test func centering() {
        var grid = TextGrid(columns: 12, lines: 5)
        grid.text("ab", column: 0, line: 0, maxColumns: 5, center: true)  // (5-2)/2 = 1
        grid.text("中", column: 0, line: 1, maxColumns: 5, center: true)  // (5-2)/2 = 1
        grid.text("abcd", column: 0, line: 2, maxColumns: 7, center: true)  // 1 left, 2 right
        grid.text("ab", column: 2, line: 3, maxColumns: 6, center: true)  // 2 + 2
        grid.text("abcdefgh", column: 1, line: 4, maxColumns: 5, center: true)  // too wide: cut, not moved
        #expect(grid.render() == [" ab", " 中", " abcd", "    ab", " abcd…"])
        #expect(grid.clippedDraws == 0)
    }

    /// Combining marks stay with their base; controls (newline, ESC), format characters and variation
    /// selectors are dropped, so a rendered line never contains a terminal control.
    @Test func marksStayControlsAreDropped() {
        var grid = TextGrid(columns: 10, lines: 2)
        grid.text("e\u{301}x\u{1B}[1m\n", column: 0, line: 0, maxColumns: 10)
        grid.text("❤\u{FE0F}a\u{200B}b\u{301}", column: 0, line: 1, maxColumns: 10)
        #expect(
            scalarLines(grid) == [
                ["e", "\u{301}", "x", "[", "1", "m"],
                ["❤", "a", "b", "\u{301}"],
            ])
    }

    /// A wide character's combining marks travel with it.
    @Test func marksOnWideCharacters() {
        var grid = TextGrid(columns: 6, lines: 1)
        grid.text("\u{1112}\u{1161}\u{11AB}x", column: 0, line: 0, maxColumns: 6)
        #expect(scalarLines(grid) == [["\u{1112}", "\u{1161}", "\u{11AB}", "x"]])
    }

    /// Nothing is drawn, and nothing counted, for `maxColumns <= 0` or text without visible scalars.
    @Test func nothingToDraw() {
        var grid = TextGrid(columns: 5, lines: 1)
        grid.text("abc", column: 0, line: 0, maxColumns: 0)
        grid.text("abc", column: 0, line: 0, maxColumns: -4)
        grid.text("", column: 0, line: 0, maxColumns: 5)
        grid.text("\u{301}\u{200B}\n\u{1B}", column: 0, line: 0, maxColumns: 5)
        grid.text("", column: -9, line: 99, maxColumns: 5)
        #expect(grid.render() == [""])
        #expect(grid.clippedDraws == 0)
    }

    /// Later text replaces earlier text cell by cell.
    @Test func laterTextOverwrites() {
        var grid = TextGrid(columns: 8, lines: 1)
        grid.text("abcdef", column: 0, line: 0, maxColumns: 8)
        grid.text("XY", column: 2, line: 0, maxColumns: 8)
        #expect(grid.render() == ["abXYef"])
    }
}

// MARK: - TextGrid: clipping

struct TextGridClippingTests {
    /// Text running past the grid's right edge is cut there with "…" and counted once.
    @Test func rightEdgeOfTheGrid() {
        var grid = TextGrid(columns: 5, lines: 3)
        grid.text("abcdefg", column: 0, line: 0, maxColumns: 100)
        grid.text("你好世界", column: 0, line: 1, maxColumns: 100)
        grid.text("x你好世", column: 0, line: 2, maxColumns: 100)  // x你 = 3, 好 does not fit in 1: space
        #expect(grid.render() == ["abcd…", "你好…", "x你 …"])
        #expect(grid.clippedDraws == 3)
    }

    /// Text starting left of the grid loses its first columns; a wide character cut in half by the left
    /// edge leaves a space in its visible half.
    @Test func leftEdgeOfTheGrid() {
        var grid = TextGrid(columns: 6, lines: 2)
        grid.text("abcde", column: -2, line: 0, maxColumns: 10)
        grid.text("你好", column: -1, line: 1, maxColumns: 10)
        #expect(grid.render() == ["cde", " 好"])
        #expect(grid.clippedDraws == 2)
    }

    /// Cut on both sides at once: the right side ends in "…" exactly at the edge.
    @Test func bothEdges() {
        var grid = TextGrid(columns: 5, lines: 1)
        grid.text("你好世界", column: -1, line: 0, maxColumns: 100)
        #expect(grid.render() == [" 好 …"])
        #expect(DisplayWidth.of(grid.render()[0]) == 5)
        #expect(grid.clippedDraws == 1)
    }

    /// Text wholly outside (above, below, left, right) draws nothing and is counted once per call.
    @Test func whollyOutside() {
        var grid = TextGrid(columns: 5, lines: 2)
        grid.text("a", column: 0, line: -1, maxColumns: 5)
        grid.text("a", column: 0, line: 2, maxColumns: 5)
        grid.text("abc", column: -3, line: 0, maxColumns: 5)
        grid.text("a", column: 5, line: 0, maxColumns: 5)
        #expect(grid.render() == ["", ""])
        #expect(grid.clippedDraws == 4)
    }

    /// Drawing is restricted to the clip rectangle; text cut by it ends in "…" at the clip's right edge.
    @Test func clipRectangle() {
        var grid = TextGrid(columns: 10, lines: 3)
        grid.clip(to: (column: 2, line: 1, width: 3, height: 1))
        grid.text("abcdef", column: 0, line: 1, maxColumns: 10)
        grid.text("outside", column: 2, line: 0, maxColumns: 10)
        grid.text("ok", column: 2, line: 1, maxColumns: 3)  // inside: not counted
        #expect(grid.render() == ["", "  ok…", ""])
        #expect(grid.clippedDraws == 2)
    }

    /// `clip(to: nil)` restores the whole grid.
    @Test func clipNilRestoresTheGrid() {
        var grid = TextGrid(columns: 10, lines: 1)
        grid.clip(to: (column: 0, line: 0, width: 2, height: 1))
        grid.clip(to: nil)
        grid.text("abcdef", column: 0, line: 0, maxColumns: 10)
        #expect(grid.render() == ["abcdef"])
        #expect(grid.clippedDraws == 0)
    }

    /// A clip with a non-positive width or height clips everything.
    @Test func emptyClipClipsEverything() {
        var grid = TextGrid(columns: 10, lines: 2)
        grid.clip(to: (column: 1, line: 0, width: 0, height: 2))
        grid.text("a", column: 1, line: 0, maxColumns: 5)
        grid.box(column: 0, line: 0, width: 3, height: 2)
        grid.clip(to: (column: 1, line: 0, width: 5, height: -1))
        grid.text("a", column: 1, line: 0, maxColumns: 5)
        #expect(grid.render() == ["", ""])
        #expect(grid.clippedDraws == 3)
    }

    /// A clip partly outside the grid is intersected with it.
    @Test func clipIsIntersectedWithTheGrid() {
        var grid = TextGrid(columns: 10, lines: 2)
        grid.clip(to: (column: -5, line: -5, width: 8, height: 6))  // grid columns 0..<3, line 0
        grid.text("abcdef", column: 0, line: 0, maxColumns: 10)
        grid.text("abc", column: 0, line: 1, maxColumns: 10)
        #expect(grid.render() == ["ab…", ""])
        #expect(grid.clippedDraws == 2)
    }

    /// A wide character cut by the clip's left edge leaves a space in its visible half, inside the clip.
    @Test func wideCharacterAtTheClipsLeftEdge() {
        var grid = TextGrid(columns: 8, lines: 1)
        grid.clip(to: (column: 2, line: 0, width: 6, height: 1))
        grid.text("你好世", column: 1, line: 0, maxColumns: 10)
        #expect(grid.render() == ["   好世"])
        #expect(grid.clippedDraws == 1)
    }
}

// MARK: - TextGrid: boxes

struct TextGridBoxTests {
    @Test func frame() {
        var grid = TextGrid(columns: 6, lines: 4)
        grid.box(column: 1, line: 0, width: 4, height: 3)
        #expect(grid.render() == [" ┌──┐", " │  │", " └──┘", ""])
        #expect(grid.clippedDraws == 0)
    }

    @Test func smallestFrames() {
        var grid = TextGrid(columns: 6, lines: 3)
        grid.box(column: 0, line: 0, width: 2, height: 2)
        grid.box(column: 3, line: 0, width: 3, height: 1)  // horizontal rule
        grid.box(column: 5, line: 1, width: 1, height: 2)  // vertical rule
        grid.box(column: 3, line: 2, width: 1, height: 1)  // a 1×1 box is a rule
        #expect(grid.render() == ["┌┐ ───", "└┘   │", "   ─ │"])
    }

    /// Width or height below 1 draws nothing and counts nothing.
    @Test func emptyBoxes() {
        var grid = TextGrid(columns: 4, lines: 2)
        grid.box(column: 0, line: 0, width: 0, height: 2)
        grid.box(column: 0, line: 0, width: 3, height: 0)
        grid.box(column: 0, line: 0, width: -1, height: -1)
        #expect(grid.render() == ["", ""])
        #expect(grid.clippedDraws == 0)
    }

    /// A box leaves its inside untouched.
    @Test func insideIsUntouched() {
        var grid = TextGrid(columns: 4, lines: 3)
        grid.text("hi", column: 1, line: 1, maxColumns: 2)
        grid.box(column: 0, line: 0, width: 4, height: 3)
        #expect(grid.render() == ["┌──┐", "│hi│", "└──┘"])
    }

    /// A box partly outside the grid draws its visible part and is counted.
    @Test func partlyOutside() {
        var grid = TextGrid(columns: 6, lines: 3)
        grid.box(column: -1, line: 0, width: 4, height: 3)
        #expect(grid.render() == ["──┐", "  │", "──┘"])
        #expect(grid.clippedDraws == 1)
    }

    /// Mixed CJK/ASCII rows inside a box, cut by the clip (the box's inside): every line is exactly the box's
    /// width and the right border sits in the same display column on every line.
    @Test func rightBorderLinesUpWithMixedContent() {
        var grid = TextGrid(columns: 12, lines: 6)
        grid.box(column: 0, line: 0, width: 12, height: 6)
        grid.clip(to: (column: 1, line: 1, width: 10, height: 4))
        let rows = ["你好世界你好", "a你b好c世d界", "ASCII only text", "全角ＡＢ"]
        for (offset, row) in rows.enumerated() {
            grid.text(row, column: 1, line: 1 + offset, maxColumns: 100)
        }
        let lines = grid.render()
        #expect(lines == ["┌──────────┐", "│你好世界 …│", "│a你b好c世…│", "│ASCII onl…│", "│全角ＡＢ  │", "└──────────┘"])
        #expect(lines.map { DisplayWidth.of($0) } == Array(repeating: 12, count: 6))
        #expect(lines[1...4].map { displayColumn(ofLast: "│", in: $0) } == Array(repeating: 11, count: 4))
        #expect(displayColumn(ofLast: "┐", in: lines[0]) == 11)
        #expect(displayColumn(ofLast: "┘", in: lines[5]) == 11)
        #expect(grid.clippedDraws == 3)  // the three rows cut by the clip; the fourth fits
    }

    /// The same rows cut by `maxColumns` instead of the clip give the same lines, and count nothing.
    @Test func rowsCutByMaxColumnsAreNotClipping() {
        var grid = TextGrid(columns: 12, lines: 4)
        grid.box(column: 0, line: 0, width: 12, height: 4)
        grid.text("你好世界你好", column: 1, line: 1, maxColumns: 10)
        grid.text("a你b好c世d界", column: 1, line: 2, maxColumns: 10)
        #expect(grid.render() == ["┌──────────┐", "│你好世界 …│", "│a你b好c世…│", "└──────────┘"])
        #expect(grid.clippedDraws == 0)
    }
}

// MARK: - TextGrid: wide characters split by later drawing

struct TextGridWideCharacterTests {
    /// Overwriting the right half of a wide character blanks its left half.
    @Test func overwriteRightHalf() {
        var grid = TextGrid(columns: 6, lines: 1)
        grid.text("你好", column: 0, line: 0, maxColumns: 6)
        grid.text("x", column: 1, line: 0, maxColumns: 1)
        #expect(grid.render() == [" x好"])
    }

    /// Overwriting the left half of a wide character blanks its right half.
    @Test func overwriteLeftHalf() {
        var grid = TextGrid(columns: 6, lines: 1)
        grid.text("你好", column: 0, line: 0, maxColumns: 6)
        grid.text("x", column: 0, line: 0, maxColumns: 1)
        #expect(grid.render() == ["x 好"])
    }

    /// A wide character drawn across two others blanks both of their other halves.
    @Test func wideOverTwoWides() {
        var grid = TextGrid(columns: 6, lines: 1)
        grid.text("你好", column: 0, line: 0, maxColumns: 6)
        grid.text("中", column: 1, line: 0, maxColumns: 2)
        #expect(grid.render() == [" 中"])
        #expect(DisplayWidth.of(grid.render()[0]) == 3)
    }

    /// Box borders split wide characters the same way.
    @Test func boxBorderOverWideCharacters() {
        var grid = TextGrid(columns: 5, lines: 3)
        grid.text("你好", column: 0, line: 1, maxColumns: 4)
        grid.box(column: 1, line: 0, width: 3, height: 3)
        #expect(grid.render() == [" ┌─┐", " │ │", " └─┘"])
    }

    /// After any of these, every line is still at most `columns` wide.
    @Test func overwritesKeepLinesWithinTheGrid() {
        var grid = TextGrid(columns: 5, lines: 1)
        grid.text("你好世", column: 0, line: 0, maxColumns: 5)
        grid.text("中文", column: 1, line: 0, maxColumns: 4)
        grid.text("x", column: 4, line: 0, maxColumns: 1)
        #expect(overwideLines(grid).isEmpty, "\(grid.render())")
        #expect(grid.render() == [" 中 x"])
    }
}

// MARK: - TextGrid: robustness

struct TextGridRobustnessTests {
    /// Absurd coordinates and sizes are clipped (saturating arithmetic), never trapped on; each call that
    /// draws nothing visible counts as clipped.
    @Test func extremeCoordinatesNeverCrash() {
        var grid = TextGrid(columns: 6, lines: 3)
        grid.text("abc", column: Int.max, line: 0, maxColumns: Int.max)
        grid.text("abc", column: Int.min, line: 0, maxColumns: Int.max)
        grid.text("abc", column: 0, line: Int.max, maxColumns: 3)
        grid.text("abc", column: 0, line: Int.min, maxColumns: 3)
        grid.text("abc", column: Int.max, line: 0, maxColumns: Int.max, center: true)
        grid.text("abc", column: 1, line: 0, maxColumns: Int.max, center: true)
        grid.text("abc", column: Int.max - 1, line: 0, maxColumns: 5)
        grid.box(column: Int.min, line: Int.min, width: Int.max, height: Int.max)
        grid.box(column: Int.max, line: Int.max, width: Int.max, height: Int.max)
        grid.box(column: Int.max - 1, line: 0, width: Int.max, height: 3)
        #expect(grid.render() == ["", "", ""])
        #expect(grid.clippedDraws == 10)
    }

    /// `Int.min` with a centred `Int.max` span lands back inside the grid.
    @Test func centredAcrossTheWholeIntegerRange() {
        var grid = TextGrid(columns: 6, lines: 1)
        grid.text("ab", column: Int.min, line: 0, maxColumns: Int.max, center: true)
        // start = Int.min + (Int.max - 2) / 2, about -2^62: far left of the grid, so wholly clipped.
        #expect(grid.render() == [""])
        #expect(grid.clippedDraws == 1)
    }

    /// A box with huge extents starting inside draws to the grid's edges.
    @Test func hugeBoxFromInside() {
        var grid = TextGrid(columns: 5, lines: 3)
        grid.box(column: 0, line: 0, width: Int.max, height: Int.max)
        #expect(grid.render() == ["┌────", "│", "│"])
        #expect(grid.clippedDraws == 1)
    }

    /// Extreme clip rectangles are intersected with the grid without overflow.
    @Test func extremeClipRectangles() {
        var grid = TextGrid(columns: 6, lines: 2)
        grid.clip(to: (column: Int.min, line: Int.min, width: Int.max, height: Int.max))  // ends at column/line -1
        grid.text("a", column: 0, line: 0, maxColumns: 1)
        grid.clip(to: (column: Int.max, line: Int.max, width: Int.max, height: Int.max))
        grid.text("a", column: 0, line: 0, maxColumns: 1)
        grid.clip(to: (column: -1, line: -1, width: Int.max, height: Int.max))  // the whole grid
        grid.text("abc", column: 0, line: 1, maxColumns: 3)
        #expect(grid.render() == ["", "abc"])
        #expect(grid.clippedDraws == 2)
    }

    /// A drawing on a grid with no cells is clipped, not a crash.
    @Test func zeroSizedGrids() {
        var empty = TextGrid(columns: 0, lines: 0)
        empty.text("abc", column: 0, line: 0, maxColumns: 3)
        empty.box(column: 0, line: 0, width: 2, height: 2)
        #expect(empty.render() == [])
        #expect(empty.clippedDraws == 2)
        var narrow = TextGrid(columns: 1, lines: 1)
        narrow.text("中", column: 0, line: 0, maxColumns: 2)  // a wide character cannot fit in one column
        #expect(narrow.render() == ["…"])
        #expect(narrow.clippedDraws == 1)
    }

    /// Seeded random sequences of text, box and clip calls (mixed scripts, controls, negative and huge
    /// coordinates): after every call each rendered line is at most `columns` display columns, holds no
    /// control or format character, and there is one line per grid line.
    @Test func randomDrawingKeepsEveryLineWithinTheGrid() {
        var random = SeededRandom(state: 0x7E57_6121)
        let pieces = [
            "a", "Z", " ", "你", "好", "😀", "Ａ", "e\u{301}", "\u{200B}", "\n", "\u{1B}", "…",
            "\u{FE0F}", "한", "\u{1112}\u{1161}\u{11AB}", "\u{301}", "─", "ｱ",
        ]
        let extremes = [Int.min, -1_000_000, -3, -1, 0, 1, 2, 7, 11, 1_000_000, Int.max]
        var violations: [String] = []
        var calls = 0
        for _ in 0..<400 {
            var grid = TextGrid(columns: random.int(0...12), lines: random.int(0...4))
            var log: [String] = []
            for _ in 0..<random.int(1...8) {
                let column = random.chance(30) ? random.pick(extremes) : random.int(-3...13)
                let line = random.chance(30) ? random.pick(extremes) : random.int(-1...5)
                let width = random.chance(30) ? random.pick(extremes) : random.int(-1...14)
                let height = random.chance(30) ? random.pick(extremes) : random.int(-1...6)
                switch random.int(0...3) {
                case 0, 1:
                    let text = (0..<random.int(0...8)).map { _ in random.pick(pieces) }.joined()
                    let center = random.chance(50)
                    log.append("text(\(text.debugDescription), \(column), \(line), \(width), center: \(center))")
                    grid.text(text, column: column, line: line, maxColumns: width, center: center)
                case 2:
                    log.append("box(\(column), \(line), \(width), \(height))")
                    grid.box(column: column, line: line, width: width, height: height)
                default:
                    if random.chance(25) {
                        log.append("clip(nil)")
                        grid.clip(to: nil)
                    } else {
                        log.append("clip(\(column), \(line), \(width), \(height))")
                        grid.clip(to: (column, line, width, height))
                    }
                }
                calls += 1
                let lines = grid.render()
                let bad =
                    lines.count != grid.lines
                    || lines.contains { line in
                        DisplayWidth.of(line) > grid.columns
                            || line.unicodeScalars.contains {
                                [.control, .format].contains($0.properties.generalCategory)
                            }
                    }
                if bad {
                    violations.append("\(grid.columns)x\(grid.lines) after \(log): \(lines)")
                    break
                }
            }
        }
        #expect(violations.isEmpty, "\(violations.prefix(3))")
        #expect(calls > 1000)
    }
}

// MARK: - TextGrid: plain text and the glyph path

struct TextGridPlainTextTests {
    /// The grids drawn over: blank, with wide characters to break, with drawn spaces, and with marks (where
    /// `text(utf8:)` takes the glyph path itself).
    static let backgrounds: [(String, @Sendable (inout TextGrid) -> Void)] = [
        ("blank", { _ in }),
        ("wide", { $0.text("日本語漢字中文", column: 0, line: 0, maxColumns: 14) }),
        ("wide at odd columns", { $0.text("x漢字中文字", column: 0, line: 1, maxColumns: 14, style: .accent) }),
        ("spaces", { $0.text("            ", column: 0, line: 0, maxColumns: 12, style: .muted) }),
        ("marks", { $0.text("e\u{301}a\u{308}o\u{302}e\u{301}", column: 2, line: 0, maxColumns: 10) }),
    ]

    static let texts = [
        "Wireless Earbuds Pro", "无线蓝牙耳机 Pro", "a日b😀c", "¥199.00", "𠀀𠀁 plane 2", "ｆｕｌｌ width", "x", "",
        "tab\there", "e\u{301}clair", "bad \u{FFFD} byte", "\u{202E}bidi", "运动鞋 4K Backpack ¥464.47", "x中",
    ]

    /// `text(utf8:)` draws text with no mark, control or other zero-width scalar without making glyphs
    /// (TextGrid.drawPlain); drawn through the glyph path instead, every grid is the same, cell for cell and
    /// style for style, with the same clipped draws, at every place, cut, centring and clip.
    @Test func plainTextDrawsWhatTheGlyphPathDraws() {
        let clips: [TextGrid.Rect?] = [nil, (2, 0, 6, 3), (0, 0, 3, 3), (-2, 1, 20, 1), (5, 0, 0, 3)]
        var compared = 0
        var differing: [String] = []
        for (name, background) in Self.backgrounds {
            for text in Self.texts + [String(decoding: [0x61, 0xFF, 0x62, 0xE6, 0x97], as: UTF8.self)] {
                let bytes = Array(text.utf8)
                let places = [-3, -1, 0, 1, 5, 9].flatMap { column in
                    [0, 1, 2, 3, 5, 8, 30].flatMap { maxColumns in [false, true].map { (column, maxColumns, $0) } }
                }
                for (column, maxColumns, center) in places {
                    for clip in clips {
                        for line in [0, 1, 3] {
                            var plain = TextGrid(columns: 12, lines: 3)
                            background(&plain)
                            plain.clip(to: clip)
                            var glyphs = plain
                            bytes.withUnsafeBufferPointer {
                                plain.text(
                                    utf8: $0, escapingControls: true, column: column, line: line,
                                    maxColumns: maxColumns, center: center, style: .bold)
                                glyphs.startGlyphs()
                                glyphs.addGlyphs(utf8: $0, escapingControls: true)
                                glyphs.drawGlyphs(
                                    column: column, line: line, maxColumns: maxColumns, center: center, style: .bold)
                            }
                            var same = plain.render() == glyphs.render() && plain.clippedDraws == glyphs.clippedDraws
                            for l in 0..<3 {
                                var a: [UInt8] = []
                                var b: [UInt8] = []
                                plain.write(line: l, to: &a, styled: true)
                                glyphs.write(line: l, to: &b, styled: true)
                                same = same && a == b
                            }
                            if !same {
                                differing.append(
                                    "\(name): \(text) at \(column),\(line) in \(maxColumns), centre \(center), "
                                        + "clip \(String(describing: clip))")
                            }
                            compared += 1
                        }
                    }
                }
            }
        }
        #expect(compared == 5 * 15 * 6 * 7 * 2 * 5 * 3)
        #expect(differing.isEmpty, "\(differing.count) differ, first: \(differing.prefix(5))")
    }
}

// MARK: - TextGrid: writing lines

struct TextGridWriteTests {
    private func line(_ grid: TextGrid, styled: Bool, at l: Int = 0) -> String {
        var bytes: [UInt8] = []
        grid.write(line: l, to: &bytes, styled: styled)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A line is written in parts around each cell with marks (the marks follow their base, then the strike of
    /// a struck cell), and a styled line's reset comes once, after the last cell, marks or not.
    @Test func marksAreWrittenAfterTheirBaseMidLineAndAtTheEnd() {
        var grid = TextGrid(columns: 8, lines: 2)
        grid.text("e\u{301}x a\u{308}", column: 0, line: 0, maxColumns: 8, style: .strike)
        grid.text("o\u{302}k", column: 1, line: 1, maxColumns: 4, style: .bold)
        let strike = "\u{336}"
        #expect(line(grid, styled: false, at: 0) == "e\u{301}\(strike)x\(strike) \(strike)a\u{308}\(strike)")
        let struck = String(decoding: TextStyle.strike.sgr, as: UTF8.self)
        let reset = String(decoding: TextStyle().sgr, as: UTF8.self)
        #expect(line(grid, styled: true, at: 0) == "\(struck)e\u{301}x a\u{308}\(reset)")
        let bold = String(decoding: TextStyle.bold.sgr, as: UTF8.self)
        #expect(line(grid, styled: false, at: 1) == " o\u{302}k")
        #expect(line(grid, styled: true, at: 1) == " \(bold)o\u{302}k\(reset)")
    }

    /// A run of equal cells is written again from the last one's bytes (`write(line:)`); a change of style in
    /// the middle of a run still switches the style, and the same cells after it switch it back.
    @Test func equalCellsAcrossStyleChanges() {
        var grid = TextGrid(columns: 14, lines: 1)
        grid.box(column: 0, line: 0, width: 4, height: 1)
        grid.text("──", column: 4, line: 0, maxColumns: 2, style: .accent)
        grid.text("──", column: 6, line: 0, maxColumns: 2)
        grid.text("ab", column: 10, line: 0, maxColumns: 2, style: .strike)
        grid.text("ab", column: 12, line: 0, maxColumns: 2)
        #expect(line(grid, styled: true) == "────\u{1B}[0;31m──\u{1B}[0m──  \u{1B}[0;9mab\u{1B}[0mab")
        #expect(line(grid, styled: false) == "────────  a\u{336}b\u{336}ab")
    }

    /// A line as the text preview's cards make them: blanks, a rule, ASCII with its spaces in one style, a wide
    /// character, the style switched back, and a wide character in the last column.
    @Test func aCardsLine() {
        var grid = TextGrid(columns: 24, lines: 1)
        grid.box(column: 1, line: 0, width: 6, height: 1)
        grid.text("ab 中", column: 8, line: 0, maxColumns: 6, style: .accent)
        grid.text("x中", column: 21, line: 0, maxColumns: 3)
        #expect(line(grid, styled: false) == " ────── ab 中        x中")
        #expect(line(grid, styled: true) == " ────── \u{1B}[0;31mab 中        \u{1B}[0mx中")
    }

    /// The runs `write(line:)` writes in bulk (blanks, ASCII in the current style, equal cells, a wide
    /// character's two halves) come out as the one-cell step writes them, plain and styled, on grids drawn at
    /// random: every style (struck cells among them), wide characters up to the last column, marks, rules,
    /// frames, fills and clips, so runs start, end and change style anywhere.
    @Test func runsWriteWhatTheOneCellStepWrites() {
        var random = SeededRandom(state: 0x3417_E2)
        var differing: [String] = []
        var written = 0
        for round in 0..<600 {
            var grid = TextGrid(columns: random.int(1...40), lines: random.int(1...4))
            var drawing = RandomGridDrawing(random: SeededRandom(state: random.next()))
            for _ in 0..<random.int(1...16) { drawing.draw(into: &grid) }
            for l in 0..<grid.lines {
                for styled in [false, true] {
                    var runs: [UInt8] = []
                    var cells: [UInt8] = []
                    grid.write(line: l, to: &runs, styled: styled, inRuns: true)
                    grid.write(line: l, to: &cells, styled: styled, inRuns: false)
                    if runs != cells {
                        differing.append(
                            "round \(round) line \(l) styled \(styled): \(String(decoding: runs, as: UTF8.self)) "
                                + "against \(String(decoding: cells, as: UTF8.self))")
                    }
                    written += runs.count
                }
            }
        }
        #expect(written > 20_000)
        #expect(differing.isEmpty, "\(differing.count) differ, first: \(differing.prefix(3))")
    }
}

// MARK: - TextGrid: runs drawn whole

struct TextGridRunTests {
    /// Lines 0 and 1 hold wide characters at even and odd columns; line 2 is left for a mark.
    static func background(withMark: Bool) -> TextGrid {
        var grid = TextGrid(columns: 12, lines: 3)
        grid.text("x漢字中文字", column: 0, line: 0, maxColumns: 12, style: .accent)
        grid.text("日本語漢字中文", column: 0, line: 1, maxColumns: 12)
        // A grid holding a mark draws cell by cell (TextGrid.putNarrow(_:at:), the glyph path): the reference.
        if withMark { grid.text("e\u{301}", column: 0, line: 2, maxColumns: 2) }
        return grid
    }

    static func sameFirstLines(_ a: TextGrid, _ b: TextGrid) -> Bool {
        guard a.clippedDraws == b.clippedDraws else { return false }
        for l in 0..<2 {
            var x: [UInt8] = []
            var y: [UInt8] = []
            a.write(line: l, to: &x, styled: true)
            b.write(line: l, to: &y, styled: true)
            if x != y { return false }
        }
        return true
    }

    /// Fills, rules and printable ASCII drawn as whole runs (`putNarrow(_:run:)`, `drawASCII`) over wide
    /// characters leave every cell as drawing them cell by cell does: a wide character across either end of the
    /// run loses its other half, at every place, width, clip and centring.
    @Test func runsDrawWhatCellByCellDraws() {
        let clips: [TextGrid.Rect?] = [nil, (3, 0, 6, 3), (-2, 1, 20, 1)]
        var differing: [String] = []
        for clip in clips {
            for column in -2...12 {
                for width in 0...7 {
                    let draws: [(String, (inout TextGrid) -> Void)] = [
                        ("fill", { $0.fill(column: column, line: 0, width: width, height: 2, scalar: "░") }),
                        ("rule", { $0.box(column: column, line: 1, width: width, height: 1) }),
                        ("frame", { $0.box(column: column, line: 0, width: width, height: 2) }),
                        (
                            "text",
                            { grid in
                                let text = Array("Ab c!xyz".utf8.prefix(width))
                                for center in [false, true] {
                                    text.withUnsafeBufferPointer {
                                        grid.text(
                                            utf8: $0, escapingControls: true, column: column, line: width % 2,
                                            maxColumns: 6, center: center, style: .bold)
                                    }
                                }
                            }
                        ),
                    ]
                    for (name, draw) in draws {
                        var runs = Self.background(withMark: false)
                        var cells = Self.background(withMark: true)
                        runs.clip(to: clip)
                        cells.clip(to: clip)
                        draw(&runs)
                        draw(&cells)
                        if !Self.sameFirstLines(runs, cells) {
                            differing.append("\(name) at \(column) width \(width) clip \(String(describing: clip))")
                        }
                    }
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) differ, first: \(differing.prefix(5))")
    }
}

// MARK: - TextGrid: clearing what was drawn

/// Random draw calls as the text preview's cells make them: text (the String, bytes and glyph paths) in every
/// style, wide characters up to the last column, marks, frames, rules, fills and clips.
struct RandomGridDrawing {
    static let pieces = [
        "a", "Z", " ", "  ", "你", "好", "😀", "e\u{301}", "─", "│", "¥19.9", "Pro ", "中文 ab", "\u{1B}", "…",
    ]
    static let styles: [TextStyle] = [[], .bold, .muted, .accent, .strike, [.bold, .strike]]

    var random: SeededRandom

    mutating func draw(into grid: inout TextGrid) {
        let columns = grid.columns
        let column = random.chance(20) ? random.int(-2...columns + 2) : random.int(0...max(0, columns - 1))
        let line = random.int(-1...grid.lines)
        let width = random.int(-1...columns + 2)
        let height = random.int(-1...4)
        let style = random.pick(Self.styles)
        switch random.int(0...9) {
        case 0...3:
            var text = (0..<random.int(1...4)).map { _ in random.pick(Self.pieces) }.joined()
            let center = random.chance(30)
            if random.chance(50) {
                text.withUTF8 {
                    _ = grid.text(
                        utf8: $0, escapingControls: true, column: column, line: line, maxColumns: width,
                        center: center, style: style)
                }
            } else {
                grid.text(text, column: column, line: line, maxColumns: width, center: center, style: style)
            }
        case 4:
            // A wide character ending at the last column, or cut there.
            let wide = random.pick(["中", "x中", "中中", "😀"])
            grid.text(wide, column: columns - random.int(1...3), line: line, maxColumns: 4, style: style)
        case 5, 6:
            grid.box(column: column, line: line, width: width, height: height, style: style)
        case 7:
            grid.fill(column: column, line: line, width: width, height: height, scalar: "░", style: style)
        default:
            grid.clip(to: random.chance(30) ? nil : (column, line, width, height))
        }
    }
}

struct TextGridClearTests {
    /// Every line of `grid`, written plain and styled (a struck space left over shows in a plain line).
    static func written(_ grid: TextGrid) -> [[UInt8]] {
        (0..<grid.lines).flatMap { l in
            [false, true].map { styled in
                var bytes: [UInt8] = []
                grid.write(line: l, to: &bytes, styled: styled)
                return bytes
            }
        }
    }

    static func isBlank(_ grid: TextGrid) -> Bool {
        written(grid).allSatisfy(\.isEmpty)
            && (0..<grid.lines).allSatisfy { grid.isBlank(line: $0, columns: 0..<grid.columns) }
    }

    /// `reset(lines:)` clears only what was drawn (TextGrid's `drawnEnds`): a grid reset after any drawing, to
    /// any height (taller, as for a row taller than a band, and back), is blank, and draws exactly what a new
    /// grid draws, cell for cell, including cells drawn before the reset and cleared by it.
    @Test func aResetGridDrawsAsANewOne() {
        var random = SeededRandom(state: 0xC1EA_2023)
        var differing: [String] = []
        for round in 0..<400 {
            let columns = random.int(1...12)
            var reused = TextGrid(columns: columns, lines: random.int(0...6))
            for _ in 0..<3 {
                var before = RandomGridDrawing(random: SeededRandom(state: random.next()))
                for _ in 0..<random.int(0...12) { before.draw(into: &reused) }
                let lines = random.pick([0, 1, 3, 6, 9, 300])
                reused.reset(lines: lines)
                if !Self.isBlank(reused) { differing.append("round \(round): not blank after reset") }
                var fresh = TextGrid(columns: columns, lines: lines)
                let seed = random.next()
                var a = RandomGridDrawing(random: SeededRandom(state: seed))
                var b = RandomGridDrawing(random: SeededRandom(state: seed))
                for _ in 0..<random.int(1...12) {
                    a.draw(into: &reused)
                    b.draw(into: &fresh)
                }
                if Self.written(reused) != Self.written(fresh) || reused.clippedDraws != fresh.clippedDraws {
                    differing.append("round \(round): \(columns) columns, \(lines) lines")
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) differ, first: \(differing.prefix(5))")
    }

    /// A band's grid made taller for a row taller than a band (TextRenderer) and back: what was drawn on the lines
    /// kept and on the lines dropped is gone, and lines grown again are blank.
    @Test func aBandTallerThanItsGridAndBack() {
        var grid = TextGrid(columns: 8, lines: 256)
        grid.text("ab中", column: 4, line: 255, maxColumns: 4, style: .strike)
        grid.reset(lines: 300)
        #expect(Self.isBlank(grid))
        grid.box(column: 0, line: 250, width: 8, height: 50)
        grid.text("中中中中", column: 0, line: 299, maxColumns: 8, style: .strike)
        grid.fill(column: 6, line: 0, width: 2, height: 300, scalar: "░")
        grid.reset(lines: 256)
        #expect(Self.isBlank(grid))
        grid.reset(lines: 300)
        #expect(Self.isBlank(grid))
    }
}
