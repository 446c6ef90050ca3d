import CFloorABI
import FloorCore
import FloorLayout
import FloorText
import Glibc
import HostContract

/// Draws a laid-out page as terminal text. Points map to a character grid: the layout width spreads over
/// the columns (by default one column is `pointsPerColumn` points, so 75 columns show a 375-point phone)
/// and one line is `pointsPerLine` points tall. Row edges are rounded to lines from their prefix-summed
/// offsets, so rounding never accumulates down the page.
///
/// Rows are drawn one below the other into a band's TextGrid (1,024 lines), which is written out as UTF-8
/// once full, by TextLineWriter. A whole page's rows are recorded (CanvasRecording: the cells' canvas calls,
/// made on this thread, where plugins are called) and drawn into the band's grid and written on a second
/// thread while the next band is recorded; a screen's are drawn at once and written inline. The cost is the
/// output's bytes plus four bands' grids and recordings (TextLineWriter.bandsInFlight), whatever the page's
/// height. Styles (bold, muted, accent) are kept in the grid and written as ANSI SGR only with
/// `Options.styled`. `Options.gutter` adds a left margin naming each row (`section:row floor type`) on its
/// first line.
public enum TextRenderer {
    public static let pointsPerColumn = 5.0
    public static let pointsPerLine = 12.0
    public static let defaultColumns = 75
    /// The widest gutter label shown; longer ones are cut with "…".
    public static let maxGutterColumns = 40

    public struct Options: Sendable, Equatable {
        /// Columns of the drawing (the gutter comes on top of them).
        public var columns: Int
        /// Write styles as ANSI SGR sequences (for a terminal); otherwise plain text.
        public var styled: Bool
        /// A left margin naming each row: `section:row floor type`.
        public var gutter: Bool
        /// Whether the grids hold frames as calls and lone texts as bytes (TextGrid.holdsFrames): false draws every
        /// cell at once (what the held drawing is tested against).
        package var holdsFrames = true

        public init(columns: Int = TextRenderer.defaultColumns, styled: Bool = false, gutter: Bool = false) {
            self.columns = columns
            self.styled = styled
            self.gutter = gutter
        }
    }

    /// The layout width, in points, that a text rendering `columns` wide shows.
    public static func layoutWidth(columns: Int) -> Double { Double(columns) * pointsPerColumn }

    /// The whole page, every row, top to bottom (nothing is pinned).
    public static func render(_ adapter: Adapter, columns: Int) -> String {
        render(adapter, options: Options(columns: columns))
    }

    public static func render(_ adapter: Adapter, options: Options) -> String {
        var out = TextOutput()
        write(adapter, options: options, to: &out)
        return String(decoding: out.expanded, as: UTF8.self)
    }

    /// The whole page's lines are written on a second thread while the next are drawn (TextLineWriter).
    package static func write(_ adapter: Adapter, options: Options, to out: inout TextOutput) {
        write(adapter, options: options, writing: .secondThread, to: &out)
    }

    /// `write(_:options:to:)` with the lines written as `writing` says, in bands of `bandLines`, each band's cells
    /// `recorded` and drawn by the writer (CanvasRecording) or drawn at once (nil: recorded on a second thread);
    /// the same bytes whatever the three.
    package static func write(
        _ adapter: Adapter, options: Options, writing: TextLineWriter.Mode,
        bandLines: Int = TextLineWriter.bandLines, recorded: Bool? = nil, to out: inout TextOutput
    ) {
        var drawing = Drawing(
            adapter, options: options, labelling: 0..<adapter.rowCount, recorded: recorded ?? (writing == .secondThread)
        )
        drawing.backend.keepsDrawnBlocks = false
        // An adapter measuring its rows as they are reached (`.asReached`) is measured as the drawing comes to
        // them, so the lines drawn so far are written while the next rows are measured.
        drawing.body(
            rows: 0..<adapter.rowCount, from: 0, to: adapter.isMeasured ? adapter.totalHeight : nil, pinned: nil,
            writing: writing, bandLines: bandLines, to: &out)
    }

    /// What a phone screen shows: the rows in the viewport, cut at its top edge and at the end of the
    /// content (a short page is not padded to the screen's height), with the pinned sticky header drawn
    /// over the top and marked "pinned".
    public static func render(_ adapter: Adapter, viewport: Viewport, columns: Int) -> String {
        render(adapter, viewport: viewport, options: Options(columns: columns))
    }

    public static func render(_ adapter: Adapter, viewport: Viewport, options: Options) -> String {
        var out = TextOutput()
        write(adapter, viewport: viewport, options: options, to: &out)
        return String(decoding: out.expanded, as: UTF8.self)
    }

    /// A screen's few dozen lines are written as they are drawn, on the caller's thread.
    package static func write(_ adapter: Adapter, viewport: Viewport, options: Options, to out: inout TextOutput) {
        write(adapter, viewport: viewport, options: options, writing: .inline, to: &out)
    }

    /// `write(_:viewport:options:to:)` with the lines written as `writing` says, in bands of `bandLines`, each
    /// band's cells `recorded` and drawn by the writer or (the default: a screen) drawn at once; the same bytes
    /// whatever the three.
    package static func write(
        _ adapter: Adapter, viewport: Viewport, options: Options, writing: TextLineWriter.Mode,
        bandLines: Int = TextLineWriter.bandLines, recorded: Bool = false, to out: inout TextOutput
    ) {
        let top = viewport.offset
        let bottom = min(viewport.offset + viewport.height, max(adapter.totalHeight, top))
        let visible = adapter.visibleRows(in: viewport)
        let pinned = adapter.pinnedHeader(in: viewport)
        // The pinned header may be far above the visible rows: only the rows drawn are labelled.
        var drawing = Drawing(
            adapter, options: options, labelling: Array(visible) + (pinned.map { [$0.row] } ?? []), recorded: recorded)
        drawing.body(
            rows: visible, from: top, to: bottom, pinned: pinned, writing: writing, bandLines: bandLines, to: &out)
    }

    /// One line of host text (a title, a status) outside the drawing: escaped, in `style` when styled.
    public static func writeLine(_ text: String, style: TextStyle, options: Options, to out: inout [UInt8]) {
        let styled = options.styled && style != []
        if styled { out.append(contentsOf: style.sgr) }
        out.append(contentsOf: ControlCharacters.escaped(text).utf8)
        if styled { out.append(contentsOf: TextStyle().sgr) }
        out.append(0x0A)
    }

    /// One drawing's state: the band being drawn (its grid, or its recording, behind the canvas), its writer, and
    /// the gutter.
    private struct Drawing {
        let adapter: Adapter
        let options: Options
        /// What the rows are drawn through: `backend`, drawing into the band's grid at once, or `recorder`,
        /// recording the calls for the writer to make on a backend of its own (CanvasRecording).
        let canvas: any BandCanvas
        let backend: GridBackend
        let recorder: CanvasRecorder?
        /// The grid's columns (the gutter's come on top).
        let columns: Int
        /// Gutter label columns (0: no gutter), and a reused one-line grid to draw labels into.
        let gutterColumns: Int
        var gutterGrid: TextGrid
        var blankGutter: [UInt8] = []
        var gutterLabels: GutterLabels
        /// The band being drawn, its grid (or its recording) lent to `canvas` while it is drawn (`band.grid`, or
        /// `band.recording`, is an empty stand-in meanwhile), and whoever writes it once handed over.
        var band = TextBand(columns: 0, lines: 0)
        var writer: TextLineWriter?
        /// Whether the rows drawn keep the item frames their cells report (Adapter.drawCell): a screen, which a
        /// front end taps, does; the whole page, drawn once to be read, does not, and neither keeps it the
        /// blocks it draws (GridBackend.keepsDrawnBlocks).
        var keepsFrames: Bool { backend.keepsDrawnBlocks }

        /// `rows`: the rows whose gutter labels set the gutter's width (only read with a gutter); `recorded`:
        /// whether the rows' calls are recorded for the writer to draw.
        init(_ adapter: Adapter, options: Options, labelling rows: some Sequence<Int>, recorded: Bool) {
            self.adapter = adapter
            self.options = options
            let columns = max(0, options.columns)
            self.columns = columns
            backend = GridBackend(
                TextGrid(columns: columns, lines: 0), pointsPerColumn: adapter.width / Double(max(1, columns)))
            let recorder = recorded ? CanvasRecorder(for: backend) : nil
            self.recorder = recorder
            canvas = recorder.map { $0 as any BandCanvas } ?? backend
            gutterLabels = GutterLabels(adapter)
            var widest = 0
            gutterGrid = TextGrid(columns: 0, lines: 1)
            if options.gutter {
                for r in rows where widest < TextRenderer.maxGutterColumns {
                    gutterGrid.startGlyphs()
                    gutterLabels.addGlyphs(row: r, to: &gutterGrid)
                    widest = max(widest, gutterGrid.glyphColumns)
                }
                widest = min(max(widest, 1), TextRenderer.maxGutterColumns)
            }
            gutterColumns = widest
            gutterGrid = TextGrid(columns: options.gutter ? widest + 2 : 0, lines: 1)
            if options.gutter {
                gutterGrid.text("│", column: widest + 1, line: 0, maxColumns: 1, style: .muted)
                gutterGrid.write(line: 0, to: &blankGutter, styled: options.styled)
                blankGutter.append(0x20)
            }
        }

        /// Offsets become lines relative to `top`; they are bounded (rows are at most FLOOR_MAX_ROW_HEIGHT
        /// high), but a line number never traps.
        private func line(_ y: Double, top: Double) -> Int {
            let line = ((y - top) / pointsPerLine).rounded()
            return line >= 1e15 ? 1 << 50 : (line >= -1e15 ? Int(line) : -(1 << 50))
        }

        /// The lines showing the page from offset `top` to `bottom`, drawn from `rows` (consecutive), with
        /// `pinned` drawn first over the top lines, appended to `out` by a writer working as `writing` says in
        /// bands of `bandLines`. A nil `bottom` is the page's end: the rows are measured as they are reached
        /// (Adapter's `.asReached`), each before it is drawn.
        mutating func body(
            rows: Range<Int>, from top: Double, to bottom: Double?, pinned: PinnedHeader?,
            writing: TextLineWriter.Mode, bandLines: Int, to out: inout TextOutput
        ) {
            // Until the last row is measured, nothing is cut at the bottom.
            var total = bottom.map { max(0, line($0, top: top)) } ?? Int.max
            // Room for every line at its widest (3 bytes a column: box drawing and CJK), capped: pages of a
            // large reservation that are never written are never resident, and no regrowth copies the text. In
            // small pages: huge ones can cost more than they save (HugePages), and TextOutput holds a long
            // page's repeated lines once (the 8 MB page's 23.5 MB of text in 11.5 MB).
            let widest = (columns + gutterColumns + 2) * 3 + (options.styled ? 64 : 0) + 1
            out.bytes.reserveCapacity(out.bytes.count + min(total, (1 << 28) / widest) * widest)
            // A recording is drawn by a backend of the writer's, as the drawing's would draw it, with an engine of
            // its own for the texts laid out when drawn (the prices).
            let replaying = GridBackend(
                TextGrid(columns: columns, lines: 0), pointsPerColumn: backend.pointsPerColumn,
                engine: writing == .secondThread ? .second : .shared)
            let writer = TextLineWriter(
                writing, columns: columns, bandLines: bandLines, styled: options.styled, gutter: options.gutter,
                holdsFrames: options.holdsFrames, blankGutter: blankGutter, drawingRecordingsWith: replaying,
                output: &out)
            self.writer = writer
            band = writer.take()
            canvas.exchange(with: &band)
            var emitted = 0
            if let pinned {
                let header = adapter.row(pinned.row)
                let first = line(top + pinned.y, top: top)
                let end = min(total, line(top + pinned.y + header.height, top: top))
                if end > 0 {
                    draw(row: pinned.row, firstLine: first, shown: 0..<end, marker: "pinned")
                    emitted = end
                }
            }
            var next = rows.lowerBound
            while next < rows.upperBound {
                let r = next
                next += 1
                if !adapter.isMeasured { measureRows(through: r) }
                if adapter.isPlacedItem(row: r) {
                    // A run of a collection floor's items: drawn side by side in their columns.
                    let section = adapter.row(r).section
                    while next < rows.upperBound, adapter.row(next).section == section, adapter.isPlacedItem(row: next)
                    {
                        next += 1
                    }
                    drawItems(r..<next, top: top, total: total, emitted: &emitted)
                    continue
                }
                let row = adapter.row(r)
                let first = line(row.top, top: top)
                let end = line(row.bottom, top: top)
                let lower = max(first, emitted)
                let upper = min(end, total)
                guard lower < upper else { continue }
                let shown = lower..<upper
                band.appendBlank(shown.lowerBound - emitted)
                draw(row: r, firstLine: first, shown: shown, marker: nil)
                emitted = shown.upperBound
            }
            if bottom == nil {
                if !adapter.isMeasured { measureRows(through: adapter.rowCount) }
                total = max(0, line(adapter.totalHeight, top: top))
            }
            band.appendBlank(total - emitted)
            handOver()
            out = writer.finish()
            self.writer = nil
        }

        /// Measures row `r` (and the rows `Adapter.measure(throughRow:)` measures with it) before its place is
        /// read. While the rows are drawn reusing the lines their heights found (TextEngine.reuseMeasures), the
        /// heights keep them: the titles are taken by the cells right after, so what is kept stays in
        /// proportion to a few rows, not the page.
        private func measureRows(through r: Int) {
            let reusing = TextEngine.measuresReused == .reusing
            if reusing { TextEngine.reuseMeasures(.keeping) }
            adapter.measure(throughRow: r)
            if reusing { TextEngine.reuseMeasures(.reusing) }
        }

        /// The first of `count` lines taken in the band's grid for a row (or a band of items) to be drawn in,
        /// after handing the band over when its grid has no room left; a row taller than a band's grid has a
        /// band of its own, its grid made as tall.
        private mutating func takeLines(_ count: Int) -> Int {
            if let first = band.takeLines(count, of: canvas.lines) { return first }
            if !band.isEmpty { handBand() }
            if canvas.lines < count { canvas.reset(lines: count) }
            return band.takeLines(count, of: canvas.lines)!
        }

        /// Hands the band drawn so far to the writer, then takes a cleared one, lent to the canvas (in that order:
        /// an inline writer has one band, which it gives back when handed it).
        private mutating func handBand() {
            handOver()
            band = writer!.take()
            canvas.exchange(with: &band)
        }

        /// Hands the band drawn so far, taken back from the canvas, to the writer; `band` is an empty stand-in
        /// after. A recorded band is drawn here first when the writer is still at the band before: the drawing
        /// would wait for it at its next `take()` anyway, so the two threads share the drawing of recordings as
        /// their loads go (on the 8 MB page, the plugins' cells leave the drawing's thread less to do than the
        /// writer: BENCHMARKS.md).
        private mutating func handOver() {
            canvas.exchange(with: &band)
            if recorder != nil, writer!.isBehind { drawRecording() }
            var handed = TextBand(columns: 0, lines: 0)
            swap(&handed, &band)
            writer!.hand(consume handed)
        }

        /// Lines a band of items is drawn in at a time: the grid stays small however long the collection.
        static let bandLines = 240

        /// Draws a run of a collection floor's items (docs/ABI.md, "Collections") in bands of lines: every item
        /// reaching into a band is drawn into it at its column, clipped to its frame, so the columns show side by
        /// side at the text's cell width. The gutter names an item on the line it starts on (the leftmost).
        /// Items taller than a band are drawn once per band they reach into (at most FLOOR_MAX_ROW_HEIGHT / 12 /
        /// bandLines + 1 times).
        private mutating func drawItems(_ run: Range<Int>, top: Double, total: Int, emitted: inout Int) {
            var bottom = 0
            for r in run { bottom = max(bottom, line(adapter.row(r).bottom, top: top)) }
            let end = min(bottom, total)
            var start = max(emitted, line(adapter.row(run.lowerBound).top, top: top))
            guard start < end else { return }
            band.appendBlank(start - emitted)
            var first = run.lowerBound
            while start < end {
                let bandEnd = min(end, start + Self.bandLines)
                let base = takeLines(bandEnd - start)
                // Items before `first` ended above this band, and tops never decrease along the run.
                while first < run.upperBound, line(adapter.row(first).bottom, top: top) <= start { first += 1 }
                var labels: [Int: Int] = [:]
                for r in first..<run.upperBound {
                    let frame = adapter.frame(of: r)
                    let firstLine = line(frame.y, top: top)
                    guard firstLine < bandEnd else { break }
                    guard line(frame.bottom, top: top) > start else { continue }
                    if firstLine >= start, labels[firstLine - start] == nil { labels[firstLine - start] = r }
                    let column = backend.columnOf(frame.x)
                    canvas.startCell(firstLine: base + firstLine - start, column: column)
                    canvas.clip(to: (column, base, backend.columnsOf(frame.width), bandEnd - start))
                    drawCell(row: r)
                }
                canvas.startCell(firstLine: 0, column: 0)
                canvas.clip(to: nil)
                for l in 0..<(bandEnd - start) {
                    band.appendLines(base + l..<base + l + 1, label: labels[l].flatMap { label(row: $0) })
                }
                start = bandEnd
            }
            emitted = end
        }

        /// Row `r`'s gutter label, written into the band's labels (nil without a gutter).
        private mutating func label(row r: Int) -> Range<Int>? {
            guard options.gutter else { return nil }
            gutterGrid.reset(lines: 1)
            gutterGrid.startGlyphs()
            gutterLabels.addGlyphs(row: r, to: &gutterGrid)
            gutterGrid.drawGlyphs(column: 0, line: 0, maxColumns: gutterColumns, center: false, style: .muted)
            gutterGrid.text("│", column: gutterColumns + 1, line: 0, maxColumns: 1, style: .muted)
            let start = band.labels.count
            gutterGrid.write(line: 0, to: &band.labels, styled: options.styled)
            band.labels.append(0x20)
            return start..<band.labels.count
        }

        /// Draws row `r`, whose first line is `firstLine`, keeping the lines `shown` (in lines of the band's grid
        /// of their own, the drawing clipped to them); the row's label goes in the gutter of the first line shown.
        private mutating func draw(row r: Int, firstLine: Int, shown: Range<Int>, marker: String?) {
            let base = takeLines(shown.count)
            let lines = base..<base + shown.count
            canvas.clip(to: (0, base, columns, shown.count))
            let origin = base + firstLine - shown.lowerBound
            canvas.startCell(firstLine: origin, column: 0)
            drawCell(row: r)
            if let marker { canvas.marker(marker, firstLine: origin, shown: lines) }
            canvas.clip(to: nil)
            band.appendLines(lines, label: label(row: r))
        }

        /// Row `r`'s cell, drawn through the canvas where the drawing has put it; a recording grown past
        /// CanvasRecording.flushBytes is drawn here (`drawRecording`), which bounds it.
        private mutating func drawCell(row r: Int) {
            adapter.drawCell(row: r, into: canvas, keepingFrames: keepsFrames)
            guard let recorder, recorder.recording.size >= CanvasRecording.flushBytes else { return }
            canvas.exchange(with: &band)
            drawRecording()
            canvas.exchange(with: &band)
        }

        /// Draws the band's recording into its grid here, on the drawing's thread (the band is the drawing's until
        /// handed over), with the drawing's backend, and empties it: the writer draws what is recorded after.
        /// Drawn in parts, by two backends, it draws what one backend draws at once: a recording is cut only
        /// after a cell's calls or at a band's end, and the calls that follow read no state the calls before
        /// left in a backend (a cell's start and the clip come before any cell's calls, the marker is given its
        /// line, and the clip is the grid's, which goes with it).
        private mutating func drawRecording() {
            guard !band.recording.isEmpty else { return }
            swap(&band.grid, &backend.grid)
            band.recording.draw(into: backend)
            swap(&band.grid, &backend.grid)
            band.recording.removeAll()
        }
    }

    /// The canvas backend over a TextGrid; `origin` is the current cell's first line. Texts go where
    /// TextPlacement says: on the line of their top, unless they share a baseline with a text drawn before
    /// them in the cell. What every band of the text preview is drawn with, at once or from its recording
    /// (CanvasRecording).
    package final class GridBackend: CanvasBackend, BandCanvas {
        // Unchecked: one drawing uses a backend at a time, from one thread (a draw call's access never
        // overlaps another's), and a checked access cost more than drawing a short line of text.
        @exclusivity(unchecked) package var grid: TextGrid
        @exclusivity(unchecked) private var origin = 0
        /// The current cell's first column: its frame's left edge (0 but for an item of a collection floor).
        @exclusivity(unchecked) private var originColumn = 0
        @exclusivity(unchecked) private var placement = TextPlacement()
        /// Whether the engine's cache keeps the blocks drawn: not while a whole page is drawn, whose rows are each
        /// drawn once (the texts their heights measured are taken from the lines they kept, `block`); kept for a
        /// screen, which a front end draws again as it scrolls.
        @exclusivity(unchecked) package var keepsDrawnBlocks = true
        package let pointsPerColumn: Double
        /// The engine that lays out the text blocks drawn once (`drawnOnce`): the shared one, but for the text
        /// preview's writer, which has one of its own (TextEngine.second) so that it never waits for the
        /// drawing's thread, which measures heights with the shared one.
        let engine: TextEngine
        package init(_ grid: TextGrid, pointsPerColumn: Double, engine: TextEngine = .shared) {
            self.grid = grid
            self.pointsPerColumn = pointsPerColumn
            self.engine = engine
        }

        /// The next cell is drawn from line `firstLine` and column `column` of the grid (its frame's top left).
        package func startCell(firstLine: Int, column: Int = 0) {
            origin = firstLine
            originColumn = column
            placement.startCell()
        }

        var lines: Int { grid.lines }

        func exchange(with band: inout TextBand) { swap(&grid, &band.grid) }

        func clip(to rect: TextGrid.Rect?) { grid.clip(to: rect) }

        func reset(lines: Int) { grid.reset(lines: lines) }

        /// The marker goes on the cell's first line with room for it at the right (a header's title line; inside
        /// a framed row, the line under its top edge), else on its second line.
        func marker(_ marker: String, firstLine: Int, shown: Range<Int>) {
            let columns = grid.columns
            let room = (columns - marker.count - 3)..<(columns - 1)
            let line =
                (firstLine..<firstLine + 2).first { shown.contains($0) && grid.isBlank(line: $0, columns: room) }
                ?? firstLine + 1
            grid.text(marker, column: columns - marker.count - 2, line: line, maxColumns: marker.count, style: .muted)
        }

        // Plugins may pass any double, NaN and infinities included; the grid clips whatever integer it gets.
        @inline(__always)
        private func cells(_ value: Double, _ rule: FloatingPointRoundingRule) -> Int {
            guard value.isFinite else { return value > 0 ? 1 << 30 : -(1 << 30) }
            return Int(max(-1e9, min(1e9, value.rounded(rule))))
        }
        private func column(_ x: Double) -> Int { originColumn + columnOf(x) }
        /// The grid column a point's x falls in, and the columns a width spans (as a frame rounds them).
        package func columnOf(_ x: Double) -> Int { cells(x / pointsPerColumn, .toNearestOrAwayFromZero) }
        package func columnsOf(_ w: Double) -> Int { frameColumns(w) }
        private func columns(_ w: Double) -> Int { cells(w / pointsPerColumn, .down) }
        private func line(_ y: Double) -> Int { origin + cells(y / pointsPerLine, .down) }
        /// A frame's width in columns, as `box` draws it.
        private func frameColumns(_ w: Double) -> Int { max(1, cells(w / pointsPerColumn, .toNearestOrAwayFromZero)) }

        package func text(_ text: String, x: Double, y: Double, maxWidth: Double, style: UInt32) {
            var text = ControlCharacters.escaped(text)
            text.withUTF8 { self.text(utf8: $0, escaped: true, x: x, y: y, maxWidth: maxWidth, style: style) }
        }

        package func text(cString: UnsafePointer<CChar>, x: Double, y: Double, maxWidth: Double, style: UInt32) {
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self), count: strlen(cString))
            text(utf8: bytes, escaped: false, x: x, y: y, maxWidth: maxWidth, style: style)
        }

        /// One line of cell text (ABI 1.4's `text`; its controls `escaped` already, or not) where TextPlacement
        /// puts it; its width in points is its columns' (TextMeasure), as the plugin measured it.
        func text(
            utf8: UnsafeBufferPointer<UInt8>, escaped: Bool, x: Double, y: Double, maxWidth: Double, style: UInt32
        ) {
            let center = style & FLOOR_TEXT_CENTER != 0
            let baseline = y + TextPlacement.baseline(style: style)
            let own = (line: line(y), column: column(x))
            let spot = placement.place(baseline: baseline, x: center ? nil : x, line: own.line, column: own.column)
            let drawn = grid.text(
                utf8: utf8, escapingControls: !escaped, column: spot.column, line: spot.line,
                maxColumns: own.column + columns(maxWidth) - spot.column, center: center,
                style: TextStyle(canvasStyle: style))
            let left = center ? Double(drawn.lowerBound - originColumn) * pointsPerColumn : x
            placement.record(
                baseline: baseline, right: left + Double(drawn.count) * TextMeasure.pointsPerColumn, line: spot.line,
                drawn: drawn, style: style)
        }

        package func image(_ source: String, x: Double, y: Double, width: Double, height: Double) {
            var source = source
            source.withUTF8 { image(bytes: $0, x: x, y: y, width: width, height: height) }
        }

        package func image(cString: UnsafePointer<CChar>, x: Double, y: Double, width: Double, height: Double) {
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self), count: strlen(cString))
            image(bytes: bytes, x: x, y: y, width: width, height: height)
        }

        /// Text draws no picture, so a fitted image is an image; from the plugin's bytes, with no String made.
        package func image(
            utf8: UnsafeRawBufferPointer, x: Double, y: Double, width: Double, height: Double, mode: UInt32
        ) {
            image(bytes: utf8.assumingMemoryBound(to: UInt8.self), x: x, y: y, width: width, height: height)
        }

        /// A frame with the image's name in its middle: the file's base name (after the last "/", up to
        /// the first "."), which identifies an image well enough in a preview, given every column inside
        /// the frame.
        func image(bytes: UnsafeBufferPointer<UInt8>, x: Double, y: Double, width: Double, height: Double) {
            box(x: x, y: y, width: width, height: height)
            var start = bytes.count
            while start > 0 && bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: ".") { end += 1 }
            if start == bytes.count {
                start = 0
                end = bytes.count
            }  // "a/" names nothing: show it whole
            // "[name]" as one text: brackets are ASCII, so the name's bytes decode as they would alone.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: end - start + 2) { label in
                label[0] = UInt8(ascii: "[")
                _ = UnsafeMutableBufferPointer(rebasing: label[1..<end - start + 1]).initialize(
                    from: bytes[start..<end])
                label[end - start + 1] = UInt8(ascii: "]")
                grid.text(
                    utf8: UnsafeBufferPointer(label), escapingControls: true, column: column(x) + 1,
                    line: line(y + height / 2 - pointsPerLine / 2), maxColumns: frameColumns(width) - 2,
                    center: true, style: [])
            }
        }

        /// Shaded cells over the rectangle's columns and lines (rounded as a frame's): "░" subtle, "▒" muted,
        /// "▓" accent (red when styled); text drawn afterwards replaces the shade where it lands.
        package func fill(x: Double, y: Double, width: Double, height: Double, tone: UInt32) {
            guard width > 0, height > 0 else { return }
            let lines = max(1, cells(height / pointsPerLine, .toNearestOrAwayFromZero))
            let shade: (Unicode.Scalar, TextStyle) =
                switch Tone(tone) {
                case .subtle: ("░", .muted)
                case .muted: ("▒", .muted)
                case .accent: ("▓", .accent)
                }
            grid.fill(
                column: column(x), line: line(y), width: frameColumns(width), height: lines, scalar: shade.0,
                style: shade.1)
        }

        /// The block's lines as the host laid them out (docs/ABI.md, "Text layout"), one a terminal line from
        /// the line of its top, each cut to the block's width in cells: the terminal shows the line breaks
        /// every other output shows, and lays the text out nowhere else. A line is at least 12 points high in
        /// every style, so the lines stay within the terminal lines the block's height covers.
        package func textBlock(_ drawing: TextBlockDrawing) {
            draw(drawing.block, x: drawing.x, y: drawing.y, maxWidth: drawing.maxWidth, style: drawing.style)
        }

        /// The plugin's bytes laid out as `HostTextLayout` lays them out for every output, with no String made
        /// of the whole text.
        package func textBlock(
            utf8: UnsafeRawBufferPointer, x: Double, y: Double, maxWidth: Double, maxLines: UInt32, style: UInt32
        ) {
            draw(
                block(utf8: utf8, maxWidth: maxWidth, maxLines: maxLines, style: style), x: x, y: y, maxWidth: maxWidth,
                style: style)
        }

        /// The block a text_block call draws: `blockWhenRecorded`'s, else `drawnOnce`'s.
        func block(utf8: UnsafeRawBufferPointer, maxWidth: Double, maxLines: UInt32, style: UInt32) -> TextBlock {
            blockWhenRecorded(utf8: utf8, maxWidth: maxWidth, maxLines: maxLines, style: style)
                ?? drawnOnce(utf8: utf8, maxWidth: maxWidth, maxLines: maxLines, style: style)
        }

        /// The block of a text_block call known where the call is made (a recording records it): a screen's, from
        /// the engine's cache (laid out and kept if need be); for a whole page, drawn once, the lines its row's
        /// height found when it is the next text the heights measured (TextEngine.measuredBlock: to be asked in
        /// the cells' order), else nil. The cache is left alone for a whole page (its 86,131 look-ups and entries
        /// were 35 M instructions of the 8 MB page's drawing thread, BENCHMARKS.md).
        func blockWhenRecorded(utf8: UnsafeRawBufferPointer, maxWidth: Double, maxLines: UInt32, style: UInt32)
            -> TextBlock?
        {
            let lines = Int(maxLines)
            guard !keepsDrawnBlocks else {
                return HostTextLayout.block(bytes: utf8, style: style, maxWidth: maxWidth, maxLines: lines)
            }
            return HostTextLayout.measuredBlock(bytes: utf8, style: style, maxWidth: maxWidth, maxLines: lines)
        }

        /// The block laid out afresh, the engine's cache and kept lines left alone (HostTextLayout.drawnOnce): on
        /// any thread, in any order (a recording's text blocks, where it is drawn).
        func drawnOnce(utf8: UnsafeRawBufferPointer, maxWidth: Double, maxLines: UInt32, style: UInt32) -> TextBlock {
            HostTextLayout.drawnOnce(
                bytes: utf8, style: style, maxWidth: maxWidth, maxLines: Int(maxLines), engine: engine)
        }

        /// The block's lines from the line TextPlacement gives its first; each line's baseline and right end
        /// in points are the block's (a centred line's x is `TextBlockDrawing.lineX`'s).
        func draw(_ block: TextBlock, x: Double, y: Double, maxWidth: Double, style: UInt32) {
            guard block.lineCount > 0 else { return }
            let own = (line: line(y), column: column(x))
            let covered = line(y + block.height - 0.001) - own.line + 1
            let center = style & FLOOR_TEXT_CENTER != 0
            let baseline = y + TextPlacement.baseline(style: style)
            let spot = placement.place(baseline: baseline, x: center ? nil : x, line: own.line, column: own.column)
            let maxColumns = own.column + columns(maxWidth) - spot.column
            let textStyle = TextStyle(canvasStyle: style)
            let centred = center && maxWidth.isFinite && maxWidth > 0
            for i in 0..<min(block.lineCount, max(1, covered)) {
                var drawn = 0..<0
                block.withLineUTF8(i) {
                    drawn = grid.text(
                        utf8: $0, plain: block.isPlain, escapingControls: true, column: spot.column,
                        line: spot.line + i, maxColumns: maxColumns, center: center, style: textStyle)
                }
                let width = block.lineWidth(i)
                let left = centred ? x + max(0, (maxWidth - width) / 2) : x
                placement.record(
                    baseline: baseline + Double(i) * block.lineHeight, right: left + width, line: spot.line + i,
                    drawn: drawn, style: style)
            }
        }

        package func box(x: Double, y: Double, width: Double, height: Double) {
            let lines = height == 0 ? 1 : max(2, cells(height / pointsPerLine, .toNearestOrAwayFromZero))
            grid.box(column: column(x), line: line(y), width: frameColumns(width), height: lines)
        }
    }
}
