/// A block of terminal lines `columns` wide and `lines` tall that the text renderer draws into.
///
/// Each cell holds one scalar of display width 1, the left half of a double-width scalar, or the right
/// half of one (see `DisplayWidth`). Combining marks and conjoining Hangul vowels/finals stay attached to
/// the cell of the scalar they follow; other zero-width scalars (controls such as "\n" or ESC, format
/// characters, variation selectors) are dropped, so a rendered line never contains a terminal control.
///
/// Drawing is clipped to a clip rectangle (`clip(to:)`, always within the grid). A draw call that loses
/// any part of what it was asked to draw to the clip or to the grid edges adds one to `clippedDraws`;
/// coordinates may be anything (negative, huge): they are clipped, never trapped on. Cutting text to its
/// own `maxColumns` is the caller's request, not clipping, and is not counted.
///
/// Invariants: a double-width scalar always occupies two cells on one line, both inside the grid, so every
/// rendered line is at most `columns` display columns and columns line up across lines.
/// A value type: copy it freely; not for concurrent mutation.
struct TextGrid {
    /// A rectangle in cell coordinates: columns `column..<column+width`, lines `line..<line+height`.
    typealias Rect = (column: Int, line: Int, width: Int, height: Int)

    /// Width of the grid in display columns (>= 0).
    let columns: Int
    /// Height of the grid in lines (>= 0).
    let lines: Int
    /// Number of draw calls that were partly or wholly clipped away (conformance checks this stays 0
    /// for a cell that draws inside its bounds).
    private(set) var clippedDraws = 0

    private var cells: [Cell]
    /// The clip as last set, in the caller's coordinates; `nil` means the whole grid.
    private var clipRect: Rect?

    /// An empty (all blank) grid. Negative sizes are treated as 0.
    init(columns: Int, lines: Int) {
        self.columns = max(0, columns)
        self.lines = max(0, lines)
        cells = Array(repeating: .blank, count: self.columns * self.lines)
    }

    // MARK: Drawing

    /// Writes `s` starting at (`column`, `line`), cut to `maxColumns` display columns and to the clip.
    ///
    /// When the text is cut (by `maxColumns` or by the clip's right edge), the last visible column is "…".
    /// A double-width scalar never straddles a limit: if only one column is left for it, that column
    /// becomes a space. With `center`, text narrower than `maxColumns` is centred in
    /// `column..<column+maxColumns` (extra column on the right). A wide scalar cut by the clip's left
    /// edge leaves a space in its visible half. Overwriting half of a wide character blanks its other
    /// half. Nothing is drawn for `maxColumns <= 0` or text without visible scalars.
    mutating func text(_ s: String, column: Int, line: Int, maxColumns: Int, center: Bool = false) {
        let glyphs = Self.glyphs(of: s)
        guard !glyphs.isEmpty, maxColumns > 0 else { return }
        let naturalWidth = glyphs.reduce(0) { $0 + $1.width }
        let width = min(naturalWidth, maxColumns)
        var shown = naturalWidth > maxColumns ? Self.cut(glyphs, to: maxColumns) : glyphs
        let start = center ? Self.sum(column, (maxColumns - width) / 2) : column
        let end = Self.sum(start, width)

        let window = visibleWindow
        guard line >= window.top, line < window.bottom, start < window.right, end > window.left else {
            clippedDraws += 1
            return
        }
        var clipped = false
        if end > window.right {
            clipped = true
            shown = Self.cut(glyphs, to: window.right - start)
        }
        var cellColumn = start
        for glyph in shown {
            defer { cellColumn += glyph.width }
            if cellColumn < window.left {
                clipped = true
                if glyph.width == 2 && cellColumn + 1 == window.left {
                    put(.space, column: window.left, line: line)
                }
                continue
            }
            put(glyph, column: cellColumn, line: line)
        }
        if clipped { clippedDraws += 1 }
    }

    /// Draws a frame ┌─┐ │ │ └─┘ on the edges of columns `column..<column+width`, lines
    /// `line..<line+height`, leaving the inside untouched. `height == 1` draws a horizontal rule ─,
    /// `width == 1` (with `height >= 2`) a vertical rule │; nothing for a width or height below 1.
    mutating func box(column: Int, line: Int, width: Int, height: Int) {
        guard width >= 1, height >= 1 else { return }
        let right = Self.sum(column, width - 1)  // last column of the frame
        let bottom = Self.sum(line, height - 1)  // last line of the frame
        let window = visibleWindow
        if column < window.left || right >= window.right || line < window.top || bottom >= window.bottom {
            clippedDraws += 1
        }
        let firstColumn = max(column, window.left)
        let lastColumn = min(right, window.right - 1)
        let firstLine = max(line, window.top)
        let lastLine = min(bottom, window.bottom - 1)
        guard firstColumn <= lastColumn, firstLine <= lastLine else { return }

        func frameScalar(_ c: Int, _ l: Int) -> Unicode.Scalar {
            if height == 1 { return "─" }
            if width == 1 { return "│" }
            switch (c == column, c == right, l == line, l == bottom) {
            case (true, _, true, _): return "┌"
            case (_, true, true, _): return "┐"
            case (true, _, _, true): return "└"
            case (_, true, _, true): return "┘"
            case (_, _, true, _), (_, _, _, true): return "─"
            default: return "│"
            }
        }
        for l in firstLine...lastLine {
            if l == line || l == bottom {
                for c in firstColumn...lastColumn {
                    put(Glyph(frameScalar(c, l)), column: c, line: l)
                }
            } else {
                for c in Set([column, right]) where c >= firstColumn && c <= lastColumn {
                    put(Glyph(frameScalar(c, l)), column: c, line: l)
                }
            }
        }
    }

    /// Restricts subsequent drawing to `rect` intersected with the grid (typically a cell's bounds);
    /// `nil` restores the whole grid. A rectangle with a non-positive width or height clips everything.
    mutating func clip(to rect: Rect?) {
        clipRect = rect
    }

    // MARK: Output

    /// The grid's lines, top to bottom: each wide character emitted once, with its attached marks,
    /// trailing blank cells trimmed. Every line's `DisplayWidth` is at most `columns`.
    func render() -> [String] {
        (0..<lines).map { l in
            let row = cells[(l * columns)..<((l + 1) * columns)]
            guard let last = row.lastIndex(where: { !$0.isBlank }) else { return "" }
            var text = String.UnicodeScalarView()
            for cell in row[...last] where cell.span != .wideRight {
                text.append(cell.scalar)
                text.append(contentsOf: cell.marks)
            }
            return String(text)
        }
    }

    // MARK: Internals

    /// The clip intersected with the grid, as half-open bounds; may be empty.
    private var visibleWindow: (left: Int, top: Int, right: Int, bottom: Int) {
        guard let rect = clipRect else { return (0, 0, columns, lines) }
        let left = min(max(rect.column, 0), columns)
        let top = min(max(rect.line, 0), lines)
        let right = max(left, min(Self.sum(rect.column, max(rect.width, 0)), columns))
        let bottom = max(top, min(Self.sum(rect.line, max(rect.height, 0)), lines))
        return (left, top, right, bottom)
    }

    /// Stores a glyph at a cell that the caller has checked to be inside the grid (and, for a wide glyph,
    /// the next cell too), keeping the "wide characters are whole" invariant.
    private mutating func put(_ glyph: Glyph, column: Int, line: Int) {
        let index = line * columns + column
        breakWideCharacter(at: index)
        if glyph.width == 2 {
            breakWideCharacter(at: index + 1)
            cells[index] = Cell(scalar: glyph.scalar, span: .wideLeft, marks: glyph.marks)
            cells[index + 1] = Cell(scalar: " ", span: .wideRight, marks: [])
        } else {
            cells[index] = Cell(scalar: glyph.scalar, span: .narrow, marks: glyph.marks)
        }
    }

    /// If the cell at `index` is half of a wide character, blanks the other half (the caller is about to
    /// overwrite this one).
    private mutating func breakWideCharacter(at index: Int) {
        switch cells[index].span {
        case .narrow: break
        case .wideLeft: cells[index + 1] = .blank
        case .wideRight: cells[index - 1] = .blank
        }
    }

    /// The visible scalars of `s` with their widths; zero-width scalars attach to the preceding glyph
    /// when they are marks (see the type's comment) and are dropped otherwise.
    private static func glyphs(of s: String) -> [Glyph] {
        var glyphs: [Glyph] = []
        for scalar in s.unicodeScalars {
            let width = DisplayWidth.of(scalar)
            if width > 0 {
                glyphs.append(Glyph(scalar, width: width))
            } else if isAttachable(scalar), !glyphs.isEmpty {
                glyphs[glyphs.count - 1].marks.append(scalar)
            }
        }
        return glyphs
    }

    private static func isAttachable(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isVariationSelector { return false }
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return false
        default: return true
        }
    }

    /// `glyphs` (wider than `limit >= 1`) cut to exactly `limit` columns, the last one "…".
    private static func cut(_ glyphs: [Glyph], to limit: Int) -> [Glyph] {
        var kept: [Glyph] = []
        var used = 0
        for glyph in glyphs {
            if used + glyph.width > limit - 1 { break }
            kept.append(glyph)
            used += glyph.width
        }
        if used < limit - 1 { kept.append(.space) }  // a wide scalar did not fit in the one column left
        kept.append(Glyph("…"))
        return kept
    }

    /// `a + b`, saturating instead of trapping, so absurd coordinates are clipped rather than crash.
    private static func sum(_ a: Int, _ b: Int) -> Int {
        let (result, overflow) = a.addingReportingOverflow(b)
        if overflow { return b > 0 ? Int.max : Int.min }
        return result
    }

    /// One visible scalar to draw, with the zero-width marks that follow it.
    private struct Glyph {
        var scalar: Unicode.Scalar
        var width: Int
        var marks: [Unicode.Scalar] = []

        init(_ scalar: Unicode.Scalar, width: Int = 1) {
            self.scalar = scalar
            self.width = width
        }

        static let space = Glyph(" ")
    }

    /// One grid cell. A `.wideRight` cell's scalar is unused (the left half carries the character).
    private struct Cell {
        enum Span { case narrow, wideLeft, wideRight }

        var scalar: Unicode.Scalar
        var span: Span
        var marks: [Unicode.Scalar]

        static let blank = Cell(scalar: " ", span: .narrow, marks: [])

        var isBlank: Bool { span == .narrow && scalar == " " && marks.isEmpty }
    }
}
