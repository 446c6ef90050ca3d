import CFloorABI

/// Draws a laid-out page as terminal text. Points map to a character grid: one column is
/// `pointsPerColumn` points wide and one line `pointsPerLine` points tall, so the default 75 columns show
/// a 375-point phone. Row edges are rounded to lines from their prefix-summed offsets, so rounding never
/// accumulates down the page.
public enum TextRenderer {
    public static let pointsPerColumn = 5.0
    public static let pointsPerLine = 12.0
    public static let defaultColumns = 75

    /// The layout width, in points, that a text rendering `columns` wide shows.
    public static func layoutWidth(columns: Int) -> Double { Double(columns) * pointsPerColumn }

    public static func render(_ adapter: Adapter, columns: Int) -> String {
        render(adapter, rows: 0..<adapter.rowCount, columns: columns)
    }

    /// Draws `rows` (consecutive) starting at the first one's top.
    static func render(_ adapter: Adapter, rows: Range<Int>, columns: Int) -> String {
        guard let first = rows.first else { return "" }
        let origin = adapter.rows.top[first]
        func line(_ y: Double) -> Int { Int(((y - origin) / pointsPerLine).rounded()) }
        let grid = GridBackend(TextGrid(columns: columns, lines: line(adapter.rows.top[rows.upperBound])))
        for r in rows {
            let top = line(adapter.rows.top[r]), bottom = line(adapter.rows.top[r + 1])
            guard bottom > top else { continue }
            grid.origin = top
            grid.grid.clip(to: (column: 0, line: top, width: columns, height: bottom - top))
            adapter.drawCell(row: r, into: grid)
        }
        return grid.grid.render().joined(separator: "\n") + "\n"
    }

    /// The canvas backend over a TextGrid; `origin` is the current cell's first line.
    final class GridBackend: CanvasBackend {
        var grid: TextGrid
        var origin = 0
        init(_ grid: TextGrid) { self.grid = grid }

        // Plugins may pass any double, NaN and infinities included; the grid clips whatever integer it gets.
        private func cells(_ value: Double, _ rule: FloatingPointRoundingRule) -> Int {
            guard value.isFinite else { return value > 0 ? 1 << 30 : -(1 << 30) }
            return Int(max(-1e9, min(1e9, value.rounded(rule))))
        }
        private func column(_ x: Double) -> Int { cells(x / pointsPerColumn, .toNearestOrAwayFromZero) }
        private func columns(_ w: Double) -> Int { cells(w / pointsPerColumn, .down) }
        private func line(_ y: Double) -> Int { origin + cells(y / pointsPerLine, .down) }

        func text(_ text: String, x: Double, y: Double, maxWidth: Double, style: UInt32) {
            grid.text(text, column: column(x), line: line(y), maxColumns: columns(maxWidth),
                      center: style & FLOOR_TEXT_CENTER != 0)
        }

        func image(_ source: String, x: Double, y: Double, width: Double, height: Double) {
            box(x: x, y: y, width: width, height: height)
            // The file's base name identifies an image well enough in a preview.
            let file = source.split(separator: "/").last.map(String.init) ?? source
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
