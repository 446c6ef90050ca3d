import Glibc
import HostContract

/// A block of terminal lines `columns` wide and `lines` tall that the text renderer draws into.
///
/// Each cell holds one scalar of display width 1, the left half of a double-width scalar, or the right
/// half of one (see `DisplayWidth`), and the `TextStyle` it was drawn with. Combining marks and conjoining
/// Hangul vowels/finals stay attached to the cell of the scalar they follow; other zero-width scalars
/// (controls such as "\n" or ESC, format characters, variation selectors) are dropped, so a rendered line
/// never contains a terminal control. Text given as UTF-8 bytes with `escapingControls` shows each
/// control character as its `\uXXXX` escape instead (see ControlCharacters), as the text renderer does
/// with what plugins draw. The only escape sequences ever written are the SGR codes of
/// `write(line:to:styled:)` with `styled`.
///
/// Drawing is clipped to a clip rectangle (`clip(to:)`, always within the grid). A draw call that loses
/// any part of what it was asked to draw to the clip or to the grid edges adds one to `clippedDraws`;
/// coordinates may be anything (negative, huge): they are clipped, never trapped on. Cutting text to its
/// own `maxColumns` is the caller's request, not clipping, and is not counted.
///
/// Invariants: a double-width scalar always occupies two cells on one line, both inside the grid, so every
/// rendered line is at most `columns` display columns and columns line up across lines.
/// Cost: cells are plain values (no reference counting); `reset(lines:)` reuses the storage, so drawing
/// a page row by row into one grid allocates once, and clears only what was drawn (`drawnEnds`), which
/// `write(line:to:styled:)` starts from too. A value type: copy it freely; not for concurrent mutation.
public struct TextGrid {
    /// A rectangle in cell coordinates: columns `column..<column+width`, lines `line..<line+height`.
    public typealias Rect = (column: Int, line: Int, width: Int, height: Int)

    /// Width of the grid in display columns (>= 0).
    public let columns: Int
    /// Height of the grid in lines (>= 0).
    public private(set) var lines: Int
    /// Number of draw calls that were partly or wholly clipped away (conformance checks this stays 0
    /// for a cell that draws inside its bounds).
    public private(set) var clippedDraws = 0

    private var cells: [Cell]
    /// For each line, a column at and after which every cell is blank, all zero bytes (0: nothing drawn on
    /// the line since it was last cleared). Every draw call raises it to the end of the cells it writes
    /// (`drawn(line:to:)`): writing a line starts from it, and `reset(lines:)` clears each line up to it only.
    private var drawnEnds: [Int]
    /// The marks attached to cells, by cell index (rare: most text has none).
    private var marks: [Int: [Unicode.Scalar]] = [:]
    /// The clip intersected with the grid, as half-open bounds (may be empty): worked out when the clip or the
    /// grid's height is set (`clip(to:)`, `reset(lines:)`), read by every draw call.
    private var visibleWindow: (left: Int, top: Int, right: Int, bottom: Int)
    /// Scratch for the glyphs of the text being drawn, and their marks (reused between calls).
    private var glyphs: [Glyph] = []
    private var glyphMarks: [Unicode.Scalar] = []
    /// Each line's frames and rules, while nothing else was drawn on it (`frameShape(line:)`); held as these calls,
    /// not as cells, until something else is drawn on the line (`holdsFrames`).
    private var shapes: [FrameShape]
    /// Whether a shape line's frames are held as calls (the default), or drawn as cells at once, as any other line's
    /// (what the held frames are tested against). Lone texts are held with them (LoneText).
    package var holdsFrames = true
    /// Each line's lone text (LoneText), held as its bytes, not cells.
    private var loneTexts: [LoneText]

    /// An empty (all blank) grid. Negative sizes are treated as 0.
    public init(columns: Int, lines: Int) {
        self.columns = max(0, columns)
        self.lines = max(0, lines)
        cells = Array(repeating: .blank, count: self.columns * self.lines)
        drawnEnds = Array(repeating: 0, count: self.lines)
        shapes = Array(repeating: FrameShape(), count: self.lines)
        loneTexts = Array(repeating: LoneText(), count: self.lines)
        visibleWindow = (0, 0, self.columns, self.lines)
        assert(MemoryLayout<Cell>.stride == 8, "write(line:) reads a cell as 8 bytes")
        assert(MemoryLayout<Cell>.offset(of: \Cell.utf8) == 0, "write(line:) reads a cell's UTF-8 as its low bytes")
        assert(MemoryLayout<Cell>.offset(of: \Cell.length)! * 8 == Cell.lengthShift, "write(line:) reads the length")
        assert(MemoryLayout<Cell>.offset(of: \Cell.span)! * 8 == Cell.spanShift, "write(line:) reads the span")
        assert(Cell.Span.narrow.rawValue == 0, "write(line:) tells a narrow cell by its span's zero byte")
        assert(MemoryLayout<Cell>.offset(of: \Cell.style)! * 8 == Cell.styleShift, "write(line:) reads the style")
        assert(MemoryLayout<Cell>.offset(of: \Cell.hasMarks)! * 8 == Cell.marksShift, "write(line:) reads the marks")
        assert(UInt64(TextStyle.strike.rawValue) << Cell.styleShift == Cell.strikeMask, "write(line:) reads the strike")
    }

    /// Makes the grid `lines` tall and blank again, with no clip and no clipped draws counted, keeping
    /// its storage. Only the cells drawn since the last reset are cleared: each kept line up to its
    /// `drawnEnds` (the text preview's lines end, on average, at a third of their width).
    public mutating func reset(lines: Int) {
        let kept = min(self.lines, max(0, lines))
        let columns = columns
        // A blank cell is all zero bytes (see Cell), so clearing is a memset.
        cells.withUnsafeMutableBytes { raw in
            drawnEnds.withUnsafeMutableBufferPointer { ends in
                loneTexts.withUnsafeMutableBufferPointer { loneTexts in
                    // A lone text's line is drawn to its end (its bytes are in its cells).
                    for l in 0..<kept where ends[l] > 0 {
                        memset(raw.baseAddress! + l &* columns &* 8, 0, ends[l] &* 8)
                        ends[l] = 0
                        loneTexts[l] = LoneText()
                    }
                }
            }
        }
        self.lines = max(0, lines)
        let count = columns * self.lines
        if cells.count > count { cells.removeLast(cells.count - count) }
        if cells.count < count { cells.append(contentsOf: repeatElement(.blank, count: count - cells.count)) }
        if drawnEnds.count > self.lines { drawnEnds.removeLast(drawnEnds.count - self.lines) }
        if drawnEnds.count < self.lines {
            drawnEnds.append(contentsOf: repeatElement(0, count: self.lines - drawnEnds.count))
        }
        if !marks.isEmpty { marks.removeAll(keepingCapacity: true) }
        visibleWindow = (0, 0, columns, self.lines)
        clippedDraws = 0
        shapes.removeAll(keepingCapacity: true)
        shapes.append(contentsOf: repeatElement(FrameShape(), count: self.lines))
        if loneTexts.count > self.lines { loneTexts.removeLast(loneTexts.count - self.lines) }
        if loneTexts.count < self.lines {
            loneTexts.append(contentsOf: repeatElement(LoneText(), count: self.lines - loneTexts.count))
        }
    }

    /// What line `l` holds when only frames and rules have been drawn on it since the grid was reset, each
    /// wholly inside the clip (`box`), at most two of them: their calls as the line's part of each (FrameShape);
    /// nil when nothing was drawn on it, or anything else was.
    package func frameShape(line l: Int) -> FrameShape? {
        guard l >= 0, l < lines, loneTexts[l].columns == 0 else { return nil }
        let shape = shapes[l]
        return shape.hasCalls ? shape : nil
    }

    /// Whether line `l` holds a lone text (LoneText).
    package func hasLoneText(line l: Int) -> Bool { l >= 0 && l < lines && loneTexts[l].columns != 0 }

    /// Whether every cell of `columns` on `line` is blank (a space or never drawn); cells outside the grid
    /// count as not blank.
    public func isBlank(line: Int, columns range: Range<Int>) -> Bool {
        guard line >= 0, line < lines, range.lowerBound >= 0, range.upperBound <= columns else { return false }
        guard !holdsDrawing(line: line) else {
            return withUnsafeTemporaryAllocation(of: Cell.self, capacity: columns) { row in
                UnsafeMutableRawPointer(row.baseAddress!).initializeMemory(
                    as: UInt8.self, repeating: 0, count: row.count &* 8)
                _ = drawHeld(line: line, into: row)
                return range.allSatisfy { row[$0].isBlank }
            }
        }
        let start = line * columns
        return range.allSatisfy { cells[start + $0].isBlank }
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
    ///
    /// Returns the columns the text takes on its line, cut and centred, whether or not the clip shows them
    /// (empty when there is nothing to draw): what a text drawn after it on the line starts from
    /// (TextPlacement).
    @discardableResult
    public mutating func text(
        _ s: String, column: Int, line: Int, maxColumns: Int, center: Bool = false,
        style: TextStyle = []
    ) -> Range<Int> {
        startGlyphs()
        for scalar in s.unicodeScalars { addGlyph(scalar.value) }
        return drawGlyphs(column: column, line: line, maxColumns: maxColumns, center: center, style: style)
    }

    /// `text` for UTF-8 bytes (invalid sequences show as U+FFFD). With `escapingControls`, every character
    /// ControlCharacters calls unsafe is drawn as its visible `\uXXXX` escape. Returns the columns the text
    /// takes, as `text` does.
    @discardableResult
    public mutating func text(
        utf8: UnsafeBufferPointer<UInt8>, escapingControls: Bool, column: Int, line: Int,
        maxColumns: Int, center: Bool = false, style: TextStyle = []
    ) -> Range<Int> {
        text(
            utf8: utf8, plain: false, escapingControls: escapingControls, column: column, line: line,
            maxColumns: maxColumns, center: center, style: style)
    }

    /// `text(utf8:...)`; `plain`: every character of `utf8` is a plain one (TextBlock.isPlain: printable ASCII,
    /// ¢ £ ¥, CJK unified ideographs, and the ellipsis a cut line ends in), so its columns are counted from its
    /// bytes and, drawn whole on a line holding nothing else but frames, it is held as its bytes (LoneText).
    @discardableResult
    package mutating func text(
        utf8: UnsafeBufferPointer<UInt8>, plain: Bool, escapingControls: Bool, column: Int, line: Int,
        maxColumns: Int, center: Bool = false, style: TextStyle = []
    ) -> Range<Int> {
        if plain,
            let taken = holdLoneText(
                utf8, columns: Self.plainColumns(utf8), column: column, line: line, maxColumns: maxColumns,
                center: center,
                style: style)
        {
            return taken
        }
        if let taken = drawPlain(
            utf8: utf8, escapingControls: escapingControls, column: column, line: line, maxColumns: maxColumns,
            center: center, style: style)
        {
            return taken
        }
        startGlyphs()
        addGlyphs(utf8: utf8, escapingControls: escapingControls)
        return drawGlyphs(column: column, line: line, maxColumns: maxColumns, center: center, style: style)
    }

    /// `text(utf8:...)` for the common text: valid UTF-8 whose every scalar takes one or two columns (no mark,
    /// control or other zero-width scalar, nothing to escape), drawn into a grid holding no marks. Draws
    /// exactly what the glyph path draws (`drawGlyphs`, step by step), with no Glyph made: the text's cells are
    /// made in one pass over its bytes (a sequence's bytes are its cell's UTF-8), cut and clipped as cells, and
    /// stored as one run. Returns the columns the text takes, as `drawGlyphs` does; nil (nothing drawn) for
    /// anything else, which the glyph path then draws.
    private mutating func drawPlain(
        utf8: UnsafeBufferPointer<UInt8>, escapingControls: Bool, column: Int, line: Int, maxColumns: Int,
        center: Bool, style: TextStyle
    ) -> Range<Int>? {
        // No cell has marks (a cell has them only while `marks` holds them), so none need dropping.
        guard marks.isEmpty else { return nil }
        if let taken = drawASCII(
            utf8: utf8, column: column, line: line, maxColumns: maxColumns, center: center, style: style)
        {
            return taken
        }
        // The glyph path draws nothing for no columns, whatever the text (and drawASCII took the empty text).
        guard maxColumns > 0 else { return column..<column }
        let styleBits = UInt64(style.rawValue) << Cell.styleShift
        // A narrow cell of one UTF-8 byte and a wide character's right half, in `style` (Cell's layout).
        let ascii = 1 << Cell.lengthShift | styleBits
        let rightHalf = 0x20 | UInt64(Cell.Span.wideRight.rawValue) << Cell.spanShift | styleBits
        // The text's cells as words: at most one a byte (a wide character's two cells come from three or four).
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: utf8.count) { cells -> Range<Int>? in
            guard
                var count = Self.plainCells(of: utf8, into: cells, style: styleBits, escapingControls: escapingControls)
            else { return nil }
            let natural = count
            let width = min(natural, maxColumns)
            if natural > maxColumns { count = Self.cut(cells, to: maxColumns, style: style) }
            let (start, end, window) = place(
                width: width, column: column, line: line, maxColumns: maxColumns, center: center)
            guard let window else { return start..<end }
            var clipped = false
            if end > window.right {
                clipped = true
                count = Self.cut(cells, to: window.right - start, style: style)
            }
            // Cells left of the clip are not drawn (an empty clip shows none); a wide character cut there leaves a
            // space in its visible half.
            var first = 0
            if start < window.left {
                clipped = true
                first = window.left - start
            }
            if first < count {
                if cells[first] & Cell.spanMask == rightHalf & Cell.spanMask { cells[first] = ascii | 0x20 }
                let run = (line * columns + start + first)..<(line * columns + start + count)
                drawHeldCells(line: line)
                self.cells.withUnsafeMutableBufferPointer { grid in
                    Self.breakWideCharacters(across: run, in: grid)
                    UnsafeMutableRawPointer(grid.baseAddress! + run.lowerBound).copyMemory(
                        from: cells.baseAddress! + first, byteCount: run.count * 8)
                }
                drawn(line: line, to: start + count)
            }
            if clipped { clippedDraws += 1 }
            return start..<end
        }
    }

    /// The cells `drawPlain` draws for `utf8`, as words (Cell's layout) in `style` (its bits), into `cells` (room
    /// for one a byte); their count, or nil when the text is not the plain text `drawPlain` draws.
    @inline(__always)
    private static func plainCells(
        of utf8: UnsafeBufferPointer<UInt8>, into cells: UnsafeMutableBufferPointer<UInt64>, style: UInt64,
        escapingControls: Bool
    ) -> Int? {
        let ascii = 1 << Cell.lengthShift | style
        let wideLeft = UInt64(Cell.Span.wideLeft.rawValue) << Cell.spanShift
        let rightHalf = 0x20 | UInt64(Cell.Span.wideRight.rawValue) << Cell.spanShift | style
        var count = 0
        var i = 0
        while i < utf8.count {
            let lead = utf8[i]
            if lead < 0x80 {
                guard lead >= 0x20 && lead < 0x7F else { return nil }
                cells[count] = ascii | UInt64(lead)
                count += 1
                i += 1
                continue
            }
            guard let (scalar, length) = decodeUTF8(utf8, at: i), let value = Unicode.Scalar(scalar) else {
                return nil
            }
            if escapingControls && ControlCharacters.isUnsafe(value) { return nil }
            let width = DisplayWidth.of(value)
            guard width > 0 else { return nil }
            // A well-formed sequence's bytes are what Cell's init encodes, first byte lowest.
            var bytes = UInt64(lead)
            for k in 1..<length { bytes |= UInt64(utf8[i + k]) << (8 * k) }
            let cell = bytes | UInt64(length) << Cell.lengthShift | style
            if width == 2 {
                cells[count] = cell | wideLeft
                cells[count + 1] = rightHalf
                count += 2
            } else {
                cells[count] = cell
                count += 1
            }
            i += length
        }
        return count
    }

    /// Where a text `width` columns wide (cut to `maxColumns` already) goes on `line`: its columns, and the
    /// visible window when any of it is inside it (nil: the draw is clipped away whole, and counted so).
    @inline(__always)
    private mutating func place(width: Int, column: Int, line: Int, maxColumns: Int, center: Bool)
        -> (start: Int, end: Int, window: (left: Int, top: Int, right: Int, bottom: Int)?)
    {
        let start = center ? Self.sum(column, (maxColumns - width) / 2) : column
        let end = Self.sum(start, width)
        let window = visibleWindow
        guard line >= window.top, line < window.bottom, start < window.right, end > window.left else {
            clippedDraws += 1
            return (start, end, nil)
        }
        return (start, end, window)
    }

    /// `drawPlain` for printable ASCII that needs no cut and no clip (most of what plugins draw: a title's line,
    /// a price, an image's name): the same cells, written straight from the bytes as a run, and the columns the
    /// text takes, as `drawPlain` answers; nil (nothing drawn) for anything else. Printable ASCII has no control to escape, so `escapingControls` draws
    /// the same either way.
    private mutating func drawASCII(
        utf8: UnsafeBufferPointer<UInt8>, column: Int, line: Int, maxColumns: Int, center: Bool, style: TextStyle
    ) -> Range<Int>? {
        let count = utf8.count
        for byte in utf8 where byte < 0x20 || byte >= 0x7F { return nil }
        guard count > 0, maxColumns > 0 else { return column..<column }
        guard count <= maxColumns else { return nil }
        let (start, end, window) = place(
            width: count, column: column, line: line, maxColumns: maxColumns, center: center)
        guard let window else { return start..<end }
        guard start >= window.left, end <= window.right else { return nil }
        if keepLoneText(utf8, line: line, column: start, columns: count, style: style) { return start..<end }
        let run = (line * columns + start)..<(line * columns + end)
        // A narrow cell of one UTF-8 byte in `style`, without marks (Cell's layout, as `write(line:)` reads it).
        let template = 1 << Cell.lengthShift | UInt64(style.rawValue) << Cell.styleShift
        drawHeldCells(line: line)
        cells.withUnsafeMutableBufferPointer { cells in
            Self.breakWideCharacters(across: run, in: cells)
            let raw = UnsafeMutableRawPointer(cells.baseAddress! + run.lowerBound)
            for k in 0..<count { raw.storeBytes(of: template | UInt64(utf8[k]), toByteOffset: k &* 8, as: UInt64.self) }
        }
        drawn(line: line, to: end)
        return start..<end
    }

    /// `cutGlyphs` on a text's cells (more than `limit >= 1` of them, in `style`): exactly `limit` cells, the last
    /// "…", and a wide character cut in two before it a space; returns `limit`.
    private static func cut(_ cells: UnsafeMutableBufferPointer<UInt64>, to limit: Int, style: TextStyle) -> Int {
        let wideLeft = UInt64(Cell.Span.wideLeft.rawValue) << Cell.spanShift
        if limit >= 2 && cells[limit - 2] & Cell.spanMask == wideLeft {
            cells[limit - 2] = Cell(0x20, span: .narrow, style: style, hasMarks: false).bits
        }
        cells[limit - 1] = Cell(0x2026, span: .narrow, style: style, hasMarks: false).bits
        return limit
    }

    /// The scalar of the well-formed UTF-8 sequence of two to four bytes at `i`, and its length; nil when the
    /// bytes there are not one (the glyph path then shows U+FFFD where Swift's decoder does).
    @inline(__always)
    private static func decodeUTF8(_ utf8: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int)? {
        let lead = utf8[i]
        let count = utf8.count
        @inline(__always) func continuation(_ k: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> UInt32? {
            guard k < count, utf8[k] >= low, utf8[k] <= high else { return nil }
            return UInt32(utf8[k] & 0x3F)
        }
        switch lead {
        case 0xC2...0xDF:
            guard let b1 = continuation(i + 1) else { return nil }
            return (UInt32(lead & 0x1F) << 6 | b1, 2)
        case 0xE0...0xEF:
            let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
            let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
            guard let b1 = continuation(i + 1, low, high), let b2 = continuation(i + 2) else { return nil }
            return (UInt32(lead & 0x0F) << 12 | b1 << 6 | b2, 3)
        case 0xF0...0xF4:
            let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
            let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
            guard let b1 = continuation(i + 1, low, high), let b2 = continuation(i + 2), let b3 = continuation(i + 3)
            else { return nil }
            return (UInt32(lead & 0x07) << 18 | b1 << 12 | b2 << 6 | b3, 4)
        default:
            return nil
        }
    }

    /// Starts the text of a draw call made of pieces (`addGlyphs`, `addGlyph`), drawn by `drawGlyphs`.
    package mutating func startGlyphs() {
        glyphs.removeAll(keepingCapacity: true)
        glyphMarks.removeAll(keepingCapacity: true)
    }

    package mutating func addGlyphs(utf8: UnsafeBufferPointer<UInt8>, escapingControls: Bool) {
        // Printable ASCII (most of what plugins draw) is one narrow glyph a byte; everything else goes
        // through the UTF-8 decoder a run at a time. An ASCII byte is never inside a multi-byte sequence,
        // so cutting runs there decodes exactly as decoding the whole text would.
        var i = 0
        let count = utf8.count
        while i < count {
            let byte = utf8[i]
            if byte >= 0x20 && byte < 0x7F {
                glyphs.append(Glyph(scalar: UInt32(byte), width: 1, marks: glyphMarks.count..<glyphMarks.count))
                i += 1
                continue
            }
            var end = i + 1
            while end < count && !(utf8[end] >= 0x20 && utf8[end] < 0x7F) { end += 1 }
            var iterator = UnsafeBufferPointer(rebasing: utf8[i..<end]).makeIterator()
            var decoder = UTF8()
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    if escapingControls && ControlCharacters.isUnsafe(scalar) {
                        for c in ControlCharacters.escape(scalar).unicodeScalars { addGlyph(c.value) }
                    } else {
                        addGlyph(scalar.value)
                    }
                case .error: addGlyph(0xFFFD)
                case .emptyInput: break decoding
                }
            }
            i = end
        }
    }

    /// Adds one scalar: a glyph when it has a width, a mark on the previous glyph when it attaches.
    package mutating func addGlyph(_ value: UInt32) {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        let width = DisplayWidth.of(scalar)
        if width > 0 {
            glyphs.append(Glyph(scalar: scalar.value, width: width, marks: glyphMarks.count..<glyphMarks.count))
        } else if !glyphs.isEmpty, Self.isAttachable(scalar) {
            glyphMarks.append(scalar)
            glyphs[glyphs.count - 1].marks = glyphs[glyphs.count - 1].marks.lowerBound..<glyphMarks.count
        }
    }

    /// The display columns of the glyphs added since `startGlyphs`.
    package var glyphColumns: Int { glyphs.reduce(0) { $0 + $1.width } }

    /// Draws the glyphs added since `startGlyphs` (see `text`); returns the columns they take.
    @discardableResult
    package mutating func drawGlyphs(
        column: Int, line: Int, maxColumns: Int, center: Bool, style: TextStyle
    ) -> Range<Int> {
        guard !glyphs.isEmpty, maxColumns > 0 else { return column..<column }
        var naturalWidth = 0
        for glyph in glyphs { naturalWidth += glyph.width }
        let width = min(naturalWidth, maxColumns)
        if naturalWidth > maxColumns { cutGlyphs(to: maxColumns) }
        let (start, end, window) = place(
            width: width, column: column, line: line, maxColumns: maxColumns, center: center)
        guard let window else { return start..<end }
        var clipped = false
        if end > window.right {
            clipped = true
            // Cutting what was already cut to a narrower limit gives what cutting the whole text would.
            cutGlyphs(to: window.right - start)
        }
        var cellColumn = start
        for glyph in glyphs {
            defer { cellColumn += glyph.width }
            if cellColumn < window.left {
                clipped = true
                if glyph.width == 2 && cellColumn + 1 == window.left {
                    put(Glyph.space, column: window.left, line: line, style: style)
                }
                continue
            }
            put(glyph, column: cellColumn, line: line, style: style)
        }
        if clipped { clippedDraws += 1 }
        return start..<end
    }

    /// Draws a frame ┌─┐ │ │ └─┘ on the edges of columns `column..<column+width`, lines
    /// `line..<line+height`, leaving the inside untouched. `height == 1` draws a horizontal rule ─,
    /// `width == 1` (with `height >= 2`) a vertical rule │; nothing for a width or height below 1.
    public mutating func box(column: Int, line: Int, width: Int, height: Int, style: TextStyle = []) {
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
        // Each line's part of the frame as a call of its shape, when the frame is wholly inside the clip (else
        // what the clip leaves depends on more than the call: no shape).
        let whole = column == firstColumn && right == lastColumn && line == firstLine && bottom == lastLine
        @inline(__always) func call(_ part: FrameShape.Part) -> UInt64 {
            whole
                ? FrameShape.call(part, column: column, width: width, style: style) ?? FrameShape.other
                : FrameShape.other
        }
        let (top, sides, end) =
            height == 1
            ? (call(.across), 0, 0)
            : width == 1
                ? (call(.down), call(.down), call(.down))
                : (call(.top), call(.sides), call(.bottom))
        // A line that stays a shape holds the call, and no cells (FrameShape); any other has its frames drawn, then
        // this one's part.
        var drawnLines = 0
        for l in firstLine...lastLine {
            let call = l == line ? top : l == bottom ? end : sides
            let shape = shapes[l]
            if holdsFrames && call != FrameShape.other && shape.first != FrameShape.other && shape.second == 0
                && loneTexts[l].columns == 0
            {
                if shape.first == 0 { shapes[l].first = call } else { shapes[l].second = call }
                continue
            }
            drawHeldCells(line: l)
            shapes[l].first = FrameShape.other
            if drawnEnds[l] <= lastColumn { drawnEnds[l] = lastColumn + 1 }
            drawnLines += 1
        }
        guard drawnLines > 0 else { return }
        let columns = columns
        let left = column == firstColumn ? column : nil
        let between = firstColumn..<(lastColumn &+ 1)
        let edge = right == lastColumn ? right : nil
        // Each drawn line's part; `put` stores a cell over a run, keeping wide characters whole.
        @inline(__always) func drawLines(_ put: (UInt64, Range<Int>) -> Void) {
            for l in firstLine...lastLine where shapes[l].first == FrameShape.other {
                let part: FrameShape.Part =
                    height == 1 ? .across : width == 1 ? .down : l == line ? .top : l == bottom ? .bottom : .sides
                // Inside the grid (clipped above), so no sum overflows.
                let start = l &* columns
                Self.frameCells(part, style: style, left: left, between: between, right: edge) { cell, run in
                    put(cell, (start &+ run.lowerBound)..<(start &+ run.upperBound))
                }
            }
        }
        guard marks.isEmpty else {
            drawLines { putNarrow(Cell(bits: $0), run: $1) }
            return
        }
        cells.withUnsafeMutableBufferPointer { cells in drawLines { Self.putNarrow(Cell(bits: $0), run: $1, in: cells) }
        }
    }

    /// The cells of a frame's `part` on one line (as Cell's words), each handed to `put` with the columns it covers,
    /// in the order they are drawn (a later one over an earlier): what lies between its edges over `between`
    /// (nothing inside a frame), then its left and right edge (nil: cut off by the clip). Narrow, without marks,
    /// in `style`.
    @inline(__always)
    private static func frameCells(
        _ part: FrameShape.Part, style: TextStyle, left: Int?, between: Range<Int>, right: Int?,
        _ put: (UInt64, Range<Int>) -> Void
    ) {
        // Every frame scalar is U+25xx, three bytes of UTF-8 (E2 94 xx): a cell told by its last byte.
        let template = 0x94E2 | 3 << Cell.lengthShift | UInt64(style.rawValue) << Cell.styleShift
        @inline(__always) func cell(_ last: UInt64) -> UInt64 { template | last << 16 }
        let edges: (left: UInt64, between: UInt64, right: UInt64) =
            switch part {
            case .across: (0x80, 0x80, 0x80)  // ─
            case .down: (0x82, 0x82, 0x82)  // │
            case .top: (0x8C, 0x80, 0x90)  // ┌ ─ ┐
            case .bottom: (0x94, 0x80, 0x98)  // └ ─ ┘
            case .sides: (0x82, 0, 0x82)  // │, nothing between
            }
        if edges.between != 0 { put(cell(edges.between), between) }
        if let left { put(cell(edges.left), left..<(left &+ 1)) }
        if let right { put(cell(edges.right), right..<(right &+ 1)) }
    }

    /// A shape line's frames (FrameShape: held as calls, not cells) drawn into `row`, its cells (blank until then),
    /// in the order they were drawn; the column after the last drawn.
    private static func drawFrames(_ shape: FrameShape, into row: UnsafeMutableBufferPointer<Cell>) -> Int {
        let base = UnsafeMutableRawPointer(row.baseAddress!)
        @inline(__always) func draw(_ call: UInt64) -> Int {
            guard call != 0, let part = FrameShape.Part(rawValue: call & 7) else { return 0 }
            let style = TextStyle(rawValue: UInt8(truncatingIfNeeded: call >> 3))
            let column = Int(truncatingIfNeeded: call >> 11) & (1 << 26 - 1)
            let end = column &+ Int(truncatingIfNeeded: call >> 37)
            frameCells(part, style: style, left: column, between: column..<end, right: end &- 1) { cell, run in
                for c in run { base.storeBytes(of: cell, toByteOffset: c &* 8, as: UInt64.self) }
            }
            return end
        }
        return max(draw(shape.first), draw(shape.second))
    }

    /// Before anything else is drawn on line `l`: what it holds (its frames, when it is a shape line, then its lone
    /// text) drawn as cells, and the line no shape.
    @inline(__always)
    private mutating func drawHeldCells(line l: Int) {
        guard holdsDrawing(line: l) else { return }
        drawHeld(line: l)
    }

    /// Whether line `l` holds frames as calls or a text as bytes (not cells).
    @inline(__always)
    private func holdsDrawing(line l: Int) -> Bool {
        shapes[l].hasCalls || loneTexts[l].columns != 0
    }

    @inline(never)
    private mutating func drawHeld(line l: Int) {
        let columns = columns
        let (shape, lone) = (shapes[l], loneTexts[l])
        // The text's bytes, held in its cells, taken out before the frames are drawn there.
        let end = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(lone.count)) { text in
            cells.withUnsafeMutableBufferPointer { cells in
                let row = UnsafeMutableBufferPointer(rebasing: cells[(l &* columns)..<(l &* columns &+ columns)])
                if lone.count > 0 {
                    UnsafeMutableRawPointer(text.baseAddress!).copyMemory(
                        from: UnsafeRawPointer(row.baseAddress! + Int(lone.column)), byteCount: Int(lone.count))
                    UnsafeMutableRawPointer(row.baseAddress! + Int(lone.column)).initializeMemory(
                        as: UInt8.self, repeating: 0, count: Int(lone.count))
                }
                return Self.drawHeld(shape, lone, UnsafeBufferPointer(text), into: row)
            }
        }
        shapes[l].first = FrameShape.other
        loneTexts[l] = LoneText()
        if drawnEnds[l] < end { drawnEnds[l] = end }
    }

    /// What line `l` holds drawn into `row` (its cells, blank until then); the column after the last drawn.
    private func drawHeld(line l: Int, into row: UnsafeMutableBufferPointer<Cell>) -> Int {
        withLoneText(line: l) { Self.drawHeld(shapes[l], loneTexts[l], $0, into: row) }
    }

    /// `body` with line `l`'s lone text's bytes (empty for none), which its cells hold.
    private func withLoneText<Result>(line l: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let lone = loneTexts[l]
        return cells.withUnsafeBytes { raw in
            body(
                UnsafeBufferPointer(
                    start: (raw.baseAddress! + (l &* columns &+ Int(lone.column)) &* 8).assumingMemoryBound(
                        to: UInt8.self),
                    count: Int(lone.count)))
        }
    }

    /// A line's held frames (`shape`, none when it is not a shape), then its lone text (`text`, its bytes), drawn
    /// into `row`, in the order they were drawn; the column after the last drawn.
    private static func drawHeld(
        _ shape: FrameShape, _ lone: LoneText, _ text: UnsafeBufferPointer<UInt8>,
        into row: UnsafeMutableBufferPointer<Cell>
    ) -> Int {
        var end = shape.hasCalls ? drawFrames(shape, into: row) : 0
        guard lone.columns > 0 else { return end }
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: text.count) { cells in
            // Its cells are its bytes (it was drawn whole; plainCells takes every text held).
            let count =
                plainCells(of: text, into: cells, style: UInt64(lone.style) << Cell.styleShift, escapingControls: false)
                ?? 0
            UnsafeMutableRawPointer(row.baseAddress! + Int(lone.column)).copyMemory(
                from: cells.baseAddress!, byteCount: count * 8)
        }
        end = max(end, Int(lone.column) + Int(lone.columns))
        return end
    }

    /// Holds `utf8` (plain, `count` columns) as line `line`'s lone text when it is drawn whole there (neither cut nor
    /// clipped) onto a line holding nothing else but frames; what `drawPlain` answers then, else nil (nothing held).
    private mutating func holdLoneText(
        _ utf8: UnsafeBufferPointer<UInt8>, columns count: Int, column: Int, line: Int, maxColumns: Int, center: Bool,
        style: TextStyle
    ) -> Range<Int>? {
        guard count > 0, count <= maxColumns else { return nil }
        let start = center ? Self.sum(column, (maxColumns - count) / 2) : column
        let end = Self.sum(start, count)
        let window = visibleWindow
        guard line >= window.top, line < window.bottom, start >= window.left, end <= window.right else { return nil }
        return keepLoneText(utf8, line: line, column: start, columns: count, style: style) ? start..<end : nil
    }

    /// Keeps `utf8` (drawn whole from `column` over `count` columns of `line`, its cells its very bytes) as the
    /// line's lone text, when the line holds nothing else but frames and the text is not struck (plain output
    /// marks each struck character); false otherwise (nothing kept).
    @inline(__always)
    private mutating func keepLoneText(
        _ utf8: UnsafeBufferPointer<UInt8>, line: Int, column: Int, columns count: Int, style: TextStyle
    ) -> Bool {
        guard holdsFrames, marks.isEmpty, !style.contains(.strike), loneTexts[line].columns == 0,
            shapes[line].first != FrameShape.other, drawnEnds[line] == 0, utf8.count <= count &* 8
        else { return false }
        // Its bytes in its own cells (at most 8 a column: a plain character is at most 3 bytes a column).
        let at = (line &* columns &+ column) &* 8
        cells.withUnsafeMutableBytes { raw in
            (raw.baseAddress! + at).copyMemory(from: utf8.baseAddress!, byteCount: utf8.count)
        }
        drawnEnds[line] = column &+ count
        loneTexts[line] = LoneText(
            column: Int32(truncatingIfNeeded: column), columns: Int32(truncatingIfNeeded: count),
            count: Int32(truncatingIfNeeded: utf8.count), style: style.rawValue)
        return true
    }

    /// A plain text's columns (TextBlock.isPlain): its characters (the bytes that start one) and its ideographs
    /// (the three-byte ones: a plain text's only other is the ellipsis a cut line ends in, one column), eight bytes
    /// at a time.
    @inline(__always)
    static func plainColumns(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        let n = utf8.count
        let high: UInt64 = 0x8080_8080_8080_8080
        var count = 0
        var i = 0
        while i &+ 8 <= n {
            let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            // A continuation byte is 10xxxxxx; a three-byte lead 1110xxxx (each bit moved to the byte's top).
            let continuation = w & ~(w << 1) & high
            let lead3 = w & (w << 1) & (w << 2) & ~(w << 3) & high
            count &+= 8 &- continuation.nonzeroBitCount &+ lead3.nonzeroBitCount
            i &+= 8
        }
        while i < n {
            let byte = base[i]
            count &+= (byte & 0xC0 != 0x80 ? 1 : 0) &+ (byte & 0xF0 == 0xE0 ? 1 : 0)
            i &+= 1
        }
        if n >= 3 && base[n - 3] == 0xE2 && base[n - 2] == 0x80 && base[n - 1] == 0xA6 { count &-= 1 }
        return count
    }

    /// Fills columns `column..<column+width`, lines `line..<line+height` with `scalar` (a narrow shade such
    /// as "░") in `style`, replacing what was there; text drawn afterwards lands on top. Clipped and counted
    /// as `box` is; nothing for a width or height below 1.
    public mutating func fill(
        column: Int, line: Int, width: Int, height: Int, scalar: Unicode.Scalar,
        style: TextStyle = []
    ) {
        guard width >= 1, height >= 1 else { return }
        let right = Self.sum(column, width)
        let bottom = Self.sum(line, height)
        let window = visibleWindow
        if column < window.left || right > window.right || line < window.top || bottom > window.bottom {
            clippedDraws += 1
        }
        let firstColumn = max(column, window.left)
        let endColumn = min(right, window.right)
        let firstLine = max(line, window.top)
        let endLine = min(bottom, window.bottom)
        guard firstColumn < endColumn, firstLine < endLine else { return }
        let cell = Cell(scalar.value, span: .narrow, style: style, hasMarks: false)
        drawn(lines: firstLine...(endLine - 1), to: endColumn)
        for l in firstLine..<endLine {
            drawHeldCells(line: l)
            shapes[l].first = FrameShape.other
            putNarrow(cell, run: (l * columns + firstColumn)..<(l * columns + endColumn))
        }
    }

    /// Restricts subsequent drawing to `rect` intersected with the grid (typically a cell's bounds);
    /// `nil` restores the whole grid. A rectangle with a non-positive width or height clips everything.
    public mutating func clip(to rect: Rect?) {
        guard let rect else {
            visibleWindow = (0, 0, columns, lines)
            return
        }
        let left = min(max(rect.column, 0), columns)
        let top = min(max(rect.line, 0), lines)
        let right = max(left, min(Self.sum(rect.column, max(rect.width, 0)), columns))
        let bottom = max(top, min(Self.sum(rect.line, max(rect.height, 0)), lines))
        visibleWindow = (left, top, right, bottom)
    }

    // MARK: Output

    /// The grid's lines, top to bottom, without styles: each wide character emitted once, with its
    /// attached marks, trailing blank cells trimmed. Every line's `DisplayWidth` is at most `columns`.
    public func render() -> [String] {
        (0..<lines).map { l in
            var bytes: [UInt8] = []
            write(line: l, to: &bytes, styled: false)
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Appends line `l` (trailing blank cells trimmed, no line break) as UTF-8 to `out`. With `styled`,
    /// each change of style is an SGR sequence (`TextStyle.sgr`) and a line that changed the style ends
    /// with a reset, so every line stands alone; blanks never switch the style.
    public func write(line l: Int, to out: inout [UInt8], styled: Bool) {
        write(line: l, to: &out, styled: styled, inRuns: true)
    }

    /// `write(line:to:styled:)`. With `inRuns`, the common runs of cells go in bulk (a few instructions a
    /// byte): blanks, ASCII in the current style, and equal cells (a rule); without, every cell goes through the
    /// one-cell step every other cell takes (what the runs are tested against): the same bytes either way.
    @inline(__always)
    package func write(line l: Int, to out: inout [UInt8], styled: Bool, inRuns: Bool) {
        guard l >= 0, l < lines, columns > 0 else { return }
        guard !holdsDrawing(line: l) else {
            // What the line holds, drawn into a copy: its frames (a shape's first line; the text preview writes the
            // next ones from its bytes); written plain, its lone text is its bytes, its cells not made.
            let columns = columns
            withUnsafeTemporaryAllocation(of: Cell.self, capacity: columns) { row in
                UnsafeMutableRawPointer(row.baseAddress!).initializeMemory(
                    as: UInt8.self, repeating: 0, count: row.count &* 8)
                guard loneTexts[l].columns > 0, inRuns, writesLoneText(line: l, styled: styled) else {
                    let end = drawHeld(line: l, into: row)
                    return Self.write(
                        UnsafeBufferPointer(row), drawnEnd: end, marks: nil, firstCell: 0, to: &out, styled: styled,
                        inRuns: inRuns)
                }
                let around = bytesAround(loneTextOf: l, row: row)
                around.before.withUnsafeBytes { before in
                    around.after.withUnsafeBytes {
                        writeLoneText(line: l, before: before, after: $0, styled: styled, to: &out)
                    }
                }
            }
            return
        }
        cells.withUnsafeBufferPointer { all in
            Self.write(
                UnsafeBufferPointer(rebasing: all[(l * columns)..<((l + 1) * columns)]), drawnEnd: drawnEnds[l],
                marks: marks, firstCell: l * columns, to: &out, styled: styled, inRuns: inRuns)
        }
    }

    /// Where a line's lone text lies among its held frames (LoneText): its frames, where it starts, and where it
    /// ends when frames follow it (-1 when none do). The lines of one layout have the same bytes around their texts
    /// (`bytesAround`), which the text preview's writer so makes once (a card's titles and prices start at one
    /// column, whatever their length).
    package struct LoneTextLayout: Hashable {
        let shape: FrameShape
        let start: Int32
        let end: Int32

        var bucket: Int { shape.bucket ^ Int(truncatingIfNeeded: start &* 31 &+ end) }
    }

    /// Line `l`'s lone text's layout, when it holds one; nil otherwise.
    package func loneTextLayout(line l: Int) -> LoneTextLayout? {
        guard l >= 0, l < lines else { return nil }
        let lone = loneTexts[l]
        guard lone.columns > 0 else { return nil }
        let shape = shapes[l]
        let end = lone.column &+ lone.columns
        return LoneTextLayout(shape: shape, start: lone.column, end: shape.end > Int(end) ? end : -1)
    }

    /// The plain bytes around line `l`'s lone text: its frames' cells before it, every column (blanks as spaces),
    /// and after it up to the last that is not blank (none: empty).
    package func bytesAround(loneTextOf l: Int) -> (before: [UInt8], after: [UInt8]) {
        withUnsafeTemporaryAllocation(of: Cell.self, capacity: columns) { row in
            UnsafeMutableRawPointer(row.baseAddress!).initializeMemory(
                as: UInt8.self, repeating: 0, count: row.count &* 8)
            return bytesAround(loneTextOf: l, row: row)
        }
    }

    /// `bytesAround(loneTextOf:)`, its frames drawn into `row` (blank).
    private func bytesAround(loneTextOf l: Int, row: UnsafeMutableBufferPointer<Cell>) -> (
        before: [UInt8], after: [UInt8]
    ) {
        let shape = shapes[l]
        let framesEnd = shape.hasCalls ? Self.drawFrames(shape, into: row) : 0
        let lone = loneTexts[l]
        let (start, end) = (Int(lone.column), Int(lone.column) + Int(lone.columns))
        let cells = UnsafeBufferPointer(row)
        var before: [UInt8] = []
        var after: [UInt8] = []
        Self.write(
            UnsafeBufferPointer(rebasing: cells[..<start]), drawnEnd: start, marks: nil, firstCell: 0, to: &before,
            styled: false, inRuns: true, trimming: false)
        if framesEnd > end {
            Self.write(
                UnsafeBufferPointer(rebasing: cells[end...]), drawnEnd: framesEnd - end, marks: nil, firstCell: 0,
                to: &after, styled: false, inRuns: true)
        }
        return (before, after)
    }

    /// Whether `write(line:)` writes line `l`, which holds a lone text, from the bytes around it (`writeLoneText`):
    /// plain always; styled when its frames are in no style (the bytes around hold no SGR sequence).
    package func writesLoneText(line l: Int, styled: Bool) -> Bool {
        !styled || shapes[l].isUnstyled
    }

    /// Appends line `l`, which holds a lone text with `before` and `after` the bytes around it (`bytesAround`):
    /// what `write(line:)` writes (`writesLoneText`), no cell of the text read. Nothing after the text: its trailing
    /// spaces are not written; nor, when it is all spaces, the blanks before it. `styled`: the text's style switched
    /// to before its first character that is not a space (a space never switches it), and back after it: before
    /// the first character after it that is not a space, or at the line's end.
    package func writeLoneText(
        line l: Int, before: UnsafeRawBufferPointer, after: UnsafeRawBufferPointer, styled: Bool = false,
        to out: inout [UInt8]
    ) {
        let style = Int(loneTexts[l].style & TextStyle.tableMask)
        withLoneText(line: l) { held in
            var count = held.count
            if after.isEmpty {
                while count > 0 && held[count - 1] == 0x20 { count -= 1 }
            }
            var lead = before.count
            if count == 0 && after.isEmpty {
                while lead > 0 && before[lead - 1] == 0x20 { lead -= 1 }
            }
            // The text's first character that is not a space, and the first after it (none: the line's end).
            var first = 0
            while first < count && held[first] == 0x20 { first += 1 }
            let switches = styled && style != 0 && first < count
            var back = 0
            while back < after.count && after[back] == 0x20 { back += 1 }
            let sgr = switches ? TextStyle.sgrTable[style] : []
            let reset = switches ? TextStyle.sgrTable[0] : []
            // One reservation for the pieces.
            out.append(addingCapacity: lead + count + after.count + sgr.count + reset.count) { span in
                span.withUnsafeMutableBufferPointer { room, initialized in
                    let base = UnsafeMutableRawPointer(room.baseAddress! + initialized)
                    var n = 0
                    @inline(__always) func put(_ bytes: UnsafeRawBufferPointer) {
                        guard !bytes.isEmpty else { return }
                        (base + n).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
                        n += bytes.count
                    }
                    let text = UnsafeRawBufferPointer(start: held.baseAddress, count: count)
                    put(UnsafeRawBufferPointer(rebasing: before[..<lead]))
                    put(UnsafeRawBufferPointer(rebasing: text[..<first]))
                    sgr.withUnsafeBytes { put($0) }
                    put(UnsafeRawBufferPointer(rebasing: text[first...]))
                    put(UnsafeRawBufferPointer(rebasing: after[..<back]))
                    reset.withUnsafeBytes { put($0) }
                    put(UnsafeRawBufferPointer(rebasing: after[back...]))
                    initialized += n
                }
            }
        }
    }

    /// `write(line:)`'s bytes for a line's cells `row`, blank from `drawnEnd` on, whose marks are `marks`' from
    /// index `firstCell`.
    @inline(__always)
    private static func write(
        _ row: UnsafeBufferPointer<Cell>, drawnEnd: Int, marks: [Int: [Unicode.Scalar]]?, firstCell: Int,
        to out: inout [UInt8], styled: Bool, inRuns: Bool, trimming: Bool = true
    ) {
        // Struck text: SGR 9 when styled (in the style's sequence); plain, U+0336 after each character.
        // Nothing is drawn from `drawnEnd` on (most of a line is its blank right end).
        var last = drawnEnd - 1
        // Blank cells are zero bytes: skip them four cells at a time, then one at a time, then drawn spaces
        // one by one (not without `trimming`: a line's cells before its lone text).
        let raw = UnsafeRawPointer(row.baseAddress!)
        @inline(__always) func word(_ c: Int) -> UInt64 {
            raw.loadUnaligned(fromByteOffset: c &* 8, as: UInt64.self)
        }
        if trimming {
            while last >= 3 && word(last) | word(last &- 1) | word(last &- 2) | word(last &- 3) == 0 { last &-= 4 }
            while last >= 0 && word(last) == 0 { last -= 1 }
            while last >= 0 && row[last].isBlank { last -= 1 }
        }
        guard last >= 0 else { return }
        // Bytes go straight into `out`'s room past its end, taken once for the line: at most 4 a scalar, plus
        // an SGR sequence before each (a styled line's reset is appended after), and 8 for the last store of a
        // run of blanks (which stores 8 spaces at a time). Appending a line written on the stack cost 120 instructions a
        // line, 47 M on the 8 MB page (BENCHMARKS.md, issue 23). The writing stops after a cell with marks
        // (rare): its marks (and strike) are appended here, and the writing goes on from the next cell. What
        // the writing closure captures is the line's cells and plain values, not the grid (which it would copy,
        // five arrays retained and released a line).
        let capacity = (last + 1) * (4 + 2 + (styled ? TextStyle.longestSGR : 0)) + 8
        var c = 0
        var current = TextStyle()
        // The common cells, told from their eight bytes (Cell's layout): a blank (all zero) is a space; a drawn
        // character without marks, not struck (plain) or in the current style (styled) is its UTF-8 (`mask`,
        // `quick`), and if it is one byte long, ASCII (`asciiMask`, `asciiQuick`: its length 1, its span narrow,
        // its bytes above the first zero).
        let mask = Cell.marksMask | (styled ? Cell.styleMask : Cell.strikeMask)
        var quick: UInt64 = 0
        let asciiMask: UInt64 = ~0xFF & (styled ? ~0 : ~Cell.styleMask | Cell.strikeMask)
        var asciiQuick: UInt64 = 1 << Cell.lengthShift
        var marked = -1
        repeat {
            marked = -1
            out.append(addingCapacity: capacity) { span in
                span.withUnsafeMutableBufferPointer { room, initialized in
                    let buffer = UnsafeMutableBufferPointer(rebasing: room[initialized...])
                    var n = 0
                    defer { initialized += n }
                    let base = UnsafeMutableRawPointer(buffer.baseAddress!)
                    while c <= last {
                        let bits = word(c)
                        if inRuns {
                            if bits == 0 {
                                // Blanks (a margin, a frame's inside): counted four at a time, written eight a
                                // store.
                                var end = c &+ 1
                                while end &+ 3 <= last
                                    && word(end) | word(end &+ 1) | word(end &+ 2) | word(end &+ 3) == 0
                                {
                                    end &+= 4
                                }
                                while end <= last && word(end) == 0 { end &+= 1 }
                                var k = 0
                                while k < end &- c {
                                    (base + (n &+ k)).storeBytes(
                                        of: 0x2020_2020_2020_2020 as UInt64, as: UInt64.self)
                                    k &+= 8
                                }
                                n &+= end &- c
                                c = end
                                continue
                            }
                            if bits & asciiMask == asciiQuick {
                                // ASCII in the current style (words and the drawn spaces between them): a byte a
                                // cell.
                                var end = c
                                repeat {
                                    (base + n).storeBytes(of: UInt8(truncatingIfNeeded: word(end)), as: UInt8.self)
                                    n &+= 1
                                    end &+= 1
                                } while end <= last && word(end) & asciiMask == asciiQuick
                                c = end
                                continue
                            }
                            let length = Int(truncatingIfNeeded: bits &>> Cell.lengthShift) & 0xFF
                            if length != 0 && bits & mask == quick {
                                // Any other common cell: its UTF-8 (all four bytes stored, `length` of them kept).
                                let utf8 = UInt32(truncatingIfNeeded: bits).littleEndian
                                (base + n).storeBytes(of: utf8, as: UInt32.self)
                                n &+= length
                                c &+= 1
                                if bits & Cell.spanMask != 0 {
                                    // The left half of a wide character (a right half, length 0, is never
                                    // common): its right half is the next cell, and writes nothing.
                                    c &+= 1
                                    continue
                                }
                                // A narrow one is written again for each equal cell after it (a rule's "─"),
                                // four at a time while four are equal.
                                while c &+ 3 <= last
                                    && (word(c) ^ bits) | (word(c &+ 1) ^ bits) | (word(c &+ 2) ^ bits)
                                        | (word(c &+ 3) ^ bits) == 0
                                {
                                    (base + n).storeBytes(of: utf8, as: UInt32.self)
                                    (base + (n &+ length)).storeBytes(of: utf8, as: UInt32.self)
                                    (base + (n &+ 2 &* length)).storeBytes(of: utf8, as: UInt32.self)
                                    (base + (n &+ 3 &* length)).storeBytes(of: utf8, as: UInt32.self)
                                    n &+= 4 &* length
                                    c &+= 4
                                }
                                while c <= last && word(c) == bits {
                                    (base + n).storeBytes(of: utf8, as: UInt32.self)
                                    n &+= length
                                    c &+= 1
                                }
                                continue
                            }
                        }
                        // One cell, any cell.
                        let cell = row[c]
                        c += 1
                        if cell.length == 0 {
                            if cell.span == .wideRight { continue }  // the left half wrote the character
                            buffer[n] = 0x20  // a blank
                            n += 1
                            continue
                        }
                        if styled && cell.style != current && cell.utf8 != 0x20 {
                            for byte in TextStyle.sgrTable[Int(cell.style.rawValue & TextStyle.tableMask)] {
                                buffer[n] = byte
                                n += 1
                            }
                            current = cell.style
                            quick = UInt64(current.rawValue) << Cell.styleShift
                            asciiQuick = 1 << Cell.lengthShift | quick
                        }
                        // All four bytes are stored (the buffer has room past the end); `length` of them count.
                        UnsafeMutableRawPointer(buffer.baseAddress! + n).storeBytes(
                            of: cell.utf8.littleEndian, as: UInt32.self)
                        n += Int(cell.length)
                        if cell.hasMarks {
                            marked = c - 1
                            return
                        }
                        if !styled && cell.style.contains(.strike) {
                            buffer[n] = 0xCC
                            buffer[n + 1] = 0xB6  // U+0336 COMBINING LONG STROKE OVERLAY
                            n += 2
                        }
                    }
                }
            }
            if marked >= 0 {
                for mark in marks?[firstCell + marked] ?? [] { Self.appendUTF8(mark.value, to: &out) }
                if !styled && row[marked].style.contains(.strike) { out.append(contentsOf: [0xCC, 0xB6]) }
            }
        } while marked >= 0
        if styled && current != [] { out.append(contentsOf: TextStyle.sgrTable[0]) }
    }

    package static func appendUTF8(_ value: UInt32, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { buffer in
            let n = encodeUTF8(value, into: buffer.baseAddress!)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    /// Writes `value` (a Unicode scalar) as UTF-8 at `p` (room for 4 bytes); returns the bytes written.
    @inline(__always)
    package static func encodeUTF8(_ value: UInt32, into p: UnsafeMutablePointer<UInt8>) -> Int {
        switch value {
        case 0..<0x80:
            p[0] = UInt8(value)
            return 1
        case 0x80..<0x800:
            p[0] = UInt8(0xC0 | (value >> 6))
            p[1] = UInt8(0x80 | (value & 0x3F))
            return 2
        case 0x800..<0x10000:
            p[0] = UInt8(0xE0 | (value >> 12))
            p[1] = UInt8(0x80 | ((value >> 6) & 0x3F))
            p[2] = UInt8(0x80 | (value & 0x3F))
            return 3
        default:
            p[0] = UInt8(0xF0 | (value >> 18))
            p[1] = UInt8(0x80 | ((value >> 12) & 0x3F))
            p[2] = UInt8(0x80 | ((value >> 6) & 0x3F))
            p[3] = UInt8(0x80 | (value & 0x3F))
            return 4
        }
    }

    // MARK: Internals

    /// Stores a glyph at a cell that the caller has checked to be inside the grid (and, for a wide glyph,
    /// the next cell too), keeping the "wide characters are whole" invariant.
    private mutating func put(_ glyph: Glyph, column: Int, line: Int, style: TextStyle) {
        drawHeldCells(line: line)
        drawn(line: line, to: column + glyph.width)
        let index = line * columns + column
        breakWideCharacter(at: index)
        let hasMarks = !glyph.marks.isEmpty
        if cells[index].hasMarks { marks[index] = nil }
        if hasMarks { marks[index] = Array(glyphMarks[glyph.marks]) }
        if glyph.width == 2 {
            breakWideCharacter(at: index + 1)
            if cells[index + 1].hasMarks { marks[index + 1] = nil }
            cells[index] = Cell(glyph.scalar, span: .wideLeft, style: style, hasMarks: hasMarks)
            cells[index + 1] = Cell(0x20, span: .wideRight, style: style, hasMarks: false)
        } else {
            cells[index] = Cell(glyph.scalar, span: .narrow, style: style, hasMarks: hasMarks)
        }
    }

    /// Raises `drawnEnds[line]` to `end` (a line and column the caller has checked): the caller writes cells of
    /// `line` before column `end` only.
    @inline(__always)
    private mutating func drawn(line: Int, to end: Int) {
        if drawnEnds[line] < end { drawnEnds[line] = end }
        shapes[line].first = FrameShape.other
    }

    /// `drawn(line:to:)` for each of `lines`, but for their shapes (set by `box` and `fill`).
    @inline(__always)
    private mutating func drawn(lines: ClosedRange<Int>, to end: Int) {
        drawnEnds.withUnsafeMutableBufferPointer { ends in
            for l in lines where ends[l] < end { ends[l] = end }
        }
    }

    /// Stores a narrow cell without marks at `index` (checked by the caller), keeping wide characters whole.
    private mutating func putNarrow(_ cell: Cell, at index: Int) {
        let old = cells[index]
        if old.span != .narrow { breakWideCharacter(at: index) }
        if old.hasMarks { marks[index] = nil }
        cells[index] = cell
    }

    /// `putNarrow(cell, at:)` at each index of `run`, in order; through a pointer when the grid holds no marks.
    private mutating func putNarrow(_ cell: Cell, run: Range<Int>) {
        guard marks.isEmpty else {
            for index in run { putNarrow(cell, at: index) }
            return
        }
        cells.withUnsafeMutableBufferPointer { cells in Self.putNarrow(cell, run: run, in: cells) }
    }

    /// `putNarrow(_:run:)` into cells none of which has marks.
    @inline(__always)
    private static func putNarrow(_ cell: Cell, run: Range<Int>, in cells: UnsafeMutableBufferPointer<Cell>) {
        guard !run.isEmpty else { return }
        breakWideCharacters(across: run, in: cells)
        // Stored as words (one store a cell, which the compiler can widen), not field by field.
        let raw = UnsafeMutableRawPointer(cells.baseAddress! + run.lowerBound)
        for k in 0..<run.count { raw.storeBytes(of: cell.bits, toByteOffset: k &* 8, as: UInt64.self) }
    }

    /// What `breakWideCharacter` at each index of `run` leaves outside the run, for a run about to be overwritten
    /// whole in a grid holding no marks: a wide character across either end loses its half outside the run (one
    /// inside the run is overwritten whole), so only the two ends are looked at.
    @inline(__always)
    private static func breakWideCharacters(across run: Range<Int>, in cells: UnsafeMutableBufferPointer<Cell>) {
        if cells[run.lowerBound].span == .wideRight { cells[run.lowerBound - 1] = .blank }
        if cells[run.upperBound - 1].span == .wideLeft { cells[run.upperBound] = .blank }
    }

    /// If the cell at `index` is half of a wide character, blanks the other half (the caller is about to
    /// overwrite this one).
    private mutating func breakWideCharacter(at index: Int) {
        switch cells[index].span {
        case .narrow: break
        case .wideLeft:
            cells[index + 1] = .blank
        case .wideRight:
            if cells[index - 1].hasMarks { marks[index - 1] = nil }
            cells[index - 1] = .blank
        }
    }

    private static func isAttachable(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isVariationSelector { return false }
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return false
        default: return true
        }
    }

    /// Cuts the glyphs (wider than `limit >= 1`) to exactly `limit` columns, the last one "…".
    private mutating func cutGlyphs(to limit: Int) {
        var kept = 0
        var used = 0
        for glyph in glyphs {
            if used + glyph.width > limit - 1 { break }
            kept += 1
            used += glyph.width
        }
        glyphs.removeLast(glyphs.count - kept)
        if used < limit - 1 { glyphs.append(.space) }  // a wide scalar did not fit in the one column left
        glyphs.append(Glyph("…"))
    }

    /// `a + b`, saturating instead of trapping, so absurd coordinates are clipped rather than crash.
    private static func sum(_ a: Int, _ b: Int) -> Int {
        let (result, overflow) = a.addingReportingOverflow(b)
        if overflow { return b > 0 ? Int.max : Int.min }
        return result
    }

    /// A line's frames and rules (`frameShape(line:)`): the `box` calls that drew on it, in order, each as the part
    /// of the frame the line shows, its columns and its style. The cells a line holds are what its calls drew on a
    /// blank line, so two lines of one shape hold the same cells and write the same bytes. `first` is 0 while
    /// nothing was drawn, `other` once anything but such a call was (or a third one).
    package struct FrameShape: Hashable {
        var first: UInt64 = 0
        var second: UInt64 = 0

        static let other = UInt64.max

        enum Part: UInt64 {
            case across = 1
            case down, top, bottom, sides
        }

        /// A call packed in a word: never 0 (its part is not) nor `other` (its top bits are 0); nil for columns
        /// too far out to pack.
        static func call(_ part: Part, column: Int, width: Int, style: TextStyle) -> UInt64? {
            guard column >= 0, column < 1 << 26, width >= 0, width < 1 << 26 else { return nil }
            return part.rawValue | UInt64(style.rawValue) << 3 | UInt64(column) << 11 | UInt64(width) << 37
        }

        var bucket: Int {
            Int(truncatingIfNeeded: (((first &* 0x9E37_79B9_7F4A_7C15) ^ second) &* 0xFF51_AFD7_ED55_8CCD) >> 40)
        }

        /// Whether it holds a call: something was drawn on its line, frames alone.
        var hasCalls: Bool { first != 0 && first != Self.other }

        /// Whether its calls draw in no style.
        var isUnstyled: Bool { (first | second) & 0xFF << 3 == 0 }

        /// The column after the last its calls draw (0 for none).
        var end: Int {
            @inline(__always) func end(_ call: UInt64) -> Int {
                call == 0 || call == FrameShape.other
                    ? 0 : (Int(truncatingIfNeeded: call >> 11) & (1 << 26 - 1)) &+ Int(truncatingIfNeeded: call >> 37)
            }
            return max(end(first), end(second))
        }
    }

    /// A text drawn whole (neither cut nor clipped) on a line holding nothing else but frames (held as its
    /// FrameShape, or none), its cells its very bytes (printable ASCII, or a plain text: TextBlock.isPlain), not
    /// struck: held as its bytes, not cells. Written plain, the line is its frames' cells up to the text, the text's
    /// bytes, and its frames' cells after it (`write(line:)`), no cell of the text made or read; anything else drawn
    /// on the line draws the text's cells first (`drawHeld`). A product card's title, price and picture-name lines
    /// (BENCHMARKS.md, issue 23). Its bytes are held in its cells, which nothing reads as cells while it is held (its
    /// line is drawn to its end, so clearing the grid clears them). `columns` 0: none.
    private struct LoneText {
        var column: Int32 = 0
        var columns: Int32 = 0
        /// Its bytes, held where its cells are (from the first).
        var count: Int32 = 0
        var style: UInt8 = 0
    }

    /// One visible scalar to draw; its marks are a range of the grid's `glyphMarks`.
    package struct Glyph {
        package var scalar: UInt32
        package var width: Int
        package var marks: Range<Int>

        package init(scalar: UInt32, width: Int, marks: Range<Int>) {
            self.scalar = scalar
            self.width = width
            self.marks = marks
        }

        package init(_ scalar: Unicode.Scalar) {
            self.init(scalar: scalar.value, width: 1, marks: 0..<0)
        }

        package static let space = Glyph(" ")
    }

    /// One grid cell: a plain value of 8 bytes, its scalar already as UTF-8 (`length` bytes of `utf8`,
    /// first byte lowest), since every cell is written and most are drawn once. A `.wideRight` cell has
    /// length 0: the left half carries the character. `hasMarks` says whether `marks` holds marks for it.
    /// `blank` is all zero bytes, so that a grid is cleared with memset; a drawn space is not blank
    /// (`isBlank` tells both apart from everything else).
    private struct Cell {
        enum Span: UInt8 { case narrow, wideLeft, wideRight }

        var utf8: UInt32
        var length: UInt8
        var span: Span
        var style: TextStyle
        var hasMarks: Bool

        @inline(__always)
        init(_ scalar: UInt32, span: Span, style: TextStyle, hasMarks: Bool) {
            var bytes: UInt32 = 0
            let count = withUnsafeMutableBytes(of: &bytes) { raw in
                TextGrid.encodeUTF8(scalar, into: raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            utf8 = UInt32(littleEndian: bytes)
            length = span == .wideRight ? 0 : UInt8(count)
            self.span = span
            self.style = style
            self.hasMarks = hasMarks
        }

        static let blank = Cell(utf8: 0, length: 0, span: .narrow, style: [], hasMarks: false)

        private init(utf8: UInt32, length: UInt8, span: Span, style: TextStyle, hasMarks: Bool) {
            self.utf8 = utf8
            self.length = length
            self.span = span
            self.style = style
            self.hasMarks = hasMarks
        }

        var isBlank: Bool { span == .narrow && !hasMarks && (length == 0 || utf8 == 0x20) }

        /// The cell's eight bytes as one little-endian word (what `write(line:)` reads).
        @inline(__always) var bits: UInt64 { unsafeBitCast(self, to: UInt64.self) }

        /// The cell whose eight bytes are `bits` (Cell's layout).
        @inline(__always) init(bits: UInt64) { self = unsafeBitCast(bits, to: Cell.self) }

        // A cell's fields within its eight bytes read as one little-endian UInt64 (`write(line:)`): literals,
        // so the write loop reads no global, which `init` checks against the layout.
        static let lengthShift: UInt64 = 32
        static let styleShift: UInt64 = 48
        static let marksShift: UInt64 = 56
        static let styleMask: UInt64 = 0xFF << styleShift
        static let spanShift: UInt64 = 40
        static let spanMask: UInt64 = 0xFF << spanShift
        static let strikeMask: UInt64 = 0x08 << styleShift
        static let marksMask: UInt64 = 0xFF << marksShift
    }
}
