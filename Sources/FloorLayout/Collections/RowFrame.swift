import CFloorABI
import FloorRuntime

/// Where a row is on the page, in points: a full-width row spans the page's width; an item row of a
/// collection floor its column (docs/ABI.md, "Collections"). Every output, tap, selection highlight and
/// impression uses the frame, so they agree on where an item is.
public struct RowFrame: Sendable, Equatable {
    public let x: Double
    public let y: Double
    public let width: Double
    public let height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    public var bottom: Double { y + height }
}

extension Adapter {
    /// Whether row `r` is an item placed into a column (FLOOR_ROW_ITEM on a grid or waterfall floor).
    public func isPlacedItem(row r: Int) -> Bool {
        let row = rows[r]
        return row.flags & FLOOR_ROW_ITEM != 0 && collections[Int(row.section)] != nil
    }

    /// Row `r`'s frame. O(1) (a dictionary read for a row of a collection floor).
    public func frame(of r: Int) -> RowFrame {
        let row = rows[r]
        guard row.flags & FLOOR_ROW_ITEM != 0, let placed = collections[Int(row.section)] else {
            return RowFrame(x: 0, y: row.top, width: width, height: row.height)
        }
        return RowFrame(
            x: placed.layout.x(ofColumn: row.column, in: width), y: row.top,
            width: itemWidths[Int(row.section)], height: row.height)
    }

    /// The column row `r` was placed in; nil for a full-width row.
    public func column(of r: Int) -> Int? { isPlacedItem(row: r) ? rows[r].column : nil }

    /// The first row whose bottom is below `y` (rowCount when none): where the rows on screen start.
    /// O(log n) on a page of lists; where `y` falls among a collection's items, a binary search per column
    /// (tops and bottoms increase along a column; an item of one column may reach below items of the other
    /// that come after it), so O(columns log n).
    package func firstRow(endingAfter y: Double) -> Int {
        guard !collections.isEmpty else { return rows.firstRow(endingAfter: y) }
        // Tops never decrease in row order (ColumnPlacer): the rows starting at or above y are a prefix.
        let started = rows.rowsStarting(before: y.nextUp)
        guard started > 0 else { return 0 }
        let last = rows[started - 1]
        guard last.flags & FLOOR_ROW_ITEM != 0, let placed = collections[Int(last.section)] else {
            return last.bottom > y ? started - 1 : started
        }
        // Rows above this floor's items end at or above its first item's top, so at or above y.
        let floorStart = rows(ofSection: Int(last.section)).lowerBound
        var first = started
        for column in placed.columnRows {
            var low = 0
            var high = column.count
            while low < high {
                let mid = (low + high) / 2
                let r = floorStart + Int(column[mid])
                if r < started && rows[r].bottom <= y { low = mid + 1 } else { high = mid }
            }
            if low < column.count { first = min(first, floorStart + Int(column[low])) }
        }
        return first
    }
}
