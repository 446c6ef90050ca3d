import CFloorABI

/// Draws a laid-out page as terminal text. Points map to a character grid: the layout width spreads over
/// the columns (by default one column is `pointsPerColumn` points, so 75 columns show a 375-point phone)
/// and one line is `pointsPerLine` points tall. Row edges are rounded to lines from their prefix-summed offsets, so rounding never
/// accumulates down the page.
public enum TextRenderer {
    public static let pointsPerColumn = 5.0
    public static let pointsPerLine = 12.0
    public static let defaultColumns = 75

    /// The layout width, in points, that a text rendering `columns` wide shows.
    public static func layoutWidth(columns: Int) -> Double { Double(columns) * pointsPerColumn }

    public static func render(_ adapter: Adapter, columns: Int) -> String {
        lines(adapter, rows: 0..<adapter.rowCount, from: 0, to: adapter.totalHeight, columns: columns)
            .joined(separator: "\n") + "\n"
    }

    /// What a phone screen shows: the rows in the viewport, cut at its edges, with the pinned sticky header
    /// drawn over the top.
    public static func render(_ adapter: Adapter, viewport: Viewport, columns: Int) -> String {
        let top = viewport.offset, bottom = viewport.offset + viewport.height
        var screen = lines(adapter, rows: adapter.visibleRows(in: viewport), from: top, to: bottom, columns: columns)
        if let pinned = adapter.pinnedHeader(in: viewport) {
            let header = adapter.rows[pinned.row]
            let drawn = lines(adapter, rows: pinned.row..<(pinned.row + 1), from: header.top - pinned.y,
                              to: header.top - pinned.y + header.height + pinned.y, columns: columns)
            for (i, line) in drawn.enumerated() where i < screen.count { screen[i] = line }
        }
        return screen.joined(separator: "\n") + "\n"
    }

    /// The lines showing the page from offset `top` to `bottom`, drawn from `rows` (consecutive).
    /// Each row is drawn into a grid of its own lines, clipped to the window: a cell never draws outside
    /// its row, so the result is the same as one big grid at the memory cost of one row.
    static func lines(_ adapter: Adapter, rows: Range<Int>, from top: Double, to bottom: Double, columns: Int) -> [String] {
        // Offsets are bounded (rows are at most Adapter.maxRowHeight high), but a line number never traps.
        func line(_ y: Double) -> Int {
            let line = ((y - top) / pointsPerLine).rounded()
            return line >= 1e15 ? 1 << 50 : (line >= -1e15 ? Int(line) : -(1 << 50))
        }
        let total = max(0, line(bottom))
        var out: [String] = []
        out.reserveCapacity(total)
        let scale = adapter.width / Double(max(1, columns))
        for r in rows {
            let row = adapter.rows[r], first = line(row.top), end = line(row.bottom)
            let shown = max(first, out.count)..<min(end, total)
            guard !shown.isEmpty else { continue }
            out += repeatElement("", count: shown.lowerBound - out.count)
            let grid = GridBackend(TextGrid(columns: columns, lines: shown.count), pointsPerColumn: scale)
            grid.origin = first - shown.lowerBound
            adapter.drawCell(row: r, into: grid)
            out += grid.grid.render()
        }
        return out + repeatElement("", count: total - out.count)
    }

    /// The canvas backend over a TextGrid; `origin` is the current cell's first line.
    final class GridBackend: CanvasBackend {
        var grid: TextGrid
        var origin = 0
        let pointsPerColumn: Double
        init(_ grid: TextGrid, pointsPerColumn: Double) {
            self.grid = grid
            self.pointsPerColumn = pointsPerColumn
        }

        // Plugins may pass any double, NaN and infinities included; the grid clips whatever integer it gets.
        private func cells(_ value: Double, _ rule: FloatingPointRoundingRule) -> Int {
            guard value.isFinite else { return value > 0 ? 1 << 30 : -(1 << 30) }
            return Int(max(-1e9, min(1e9, value.rounded(rule))))
        }
        private func column(_ x: Double) -> Int { cells(x / pointsPerColumn, .toNearestOrAwayFromZero) }
        private func columns(_ w: Double) -> Int { cells(w / pointsPerColumn, .down) }
        private func line(_ y: Double) -> Int { origin + cells(y / pointsPerLine, .down) }

        func text(_ text: String, x: Double, y: Double, maxWidth: Double, style: UInt32) {
            grid.text(ControlCharacters.escaped(text), column: column(x), line: line(y), maxColumns: columns(maxWidth),
                      center: style & FLOOR_TEXT_CENTER != 0)
        }

        func image(_ source: String, x: Double, y: Double, width: Double, height: Double) {
            box(x: x, y: y, width: width, height: height)
            // The file's base name identifies an image well enough in a preview.
            let file = ControlCharacters.escaped(source).split(separator: "/").last.map(String.init) ?? source
            let name = file.split(separator: ".").first.map(String.init) ?? file
            let inner = columns(width) - 2
            let middle = line(y + height / 2 - pointsPerLine / 2)
            grid.text("[" + name + "]", column: column(x) + 1, line: middle, maxColumns: inner, center: true)
        }

        func box(x: Double, y: Double, width: Double, height: Double) {
            let lines = height == 0 ? 1 : max(2, cells(height / pointsPerLine, .toNearestOrAwayFromZero))
            grid.box(column: column(x), line: line(y), width: max(1, cells(width / pointsPerColumn, .toNearestOrAwayFromZero)),
                     height: lines)
        }
    }
}
