import CFloorABI

/// The part of the page a phone screen shows: `height` points starting `offset` points from the top.
public struct Viewport: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public var offset: Double

    public init(width: Double = 375, height: Double = 812, offset: Double = 0) {
        self.width = width
        self.height = height
        self.offset = offset
    }
}

/// A sticky row pinned at the top of the viewport (as a table view's section header sticks): a floor's
/// sticky title header, or any row its plugin listed with FLOOR_ROW_STICKY.
public struct PinnedHeader: Sendable, Equatable {
    /// The pinned row.
    public let row: Int
    public let floor: String
    /// Where it is drawn, relative to the viewport's top: 0, or negative while the next sticky row
    /// pushes it up.
    public let y: Double

    package init(row: Int, floor: String, y: Double) {
        self.row = row
        self.floor = floor
        self.y = y
    }
}

extension Adapter {
    /// The rows at least partly inside the viewport (a zero-height row counts when its top is inside): the
    /// first and the last are on screen; between them, an item of a collection floor's column may not be
    /// (it ended above the top while a taller item beside it did not), which its frame (`frame(of:)`)
    /// tells. O(log n), O(columns log n) inside a collection (Collections/RowFrame.swift).
    public func visibleRows(in viewport: Viewport) -> Range<Int> {
        let first = firstRow(endingAfter: viewport.offset)
        let end = rows.rowsStarting(before: viewport.offset + viewport.height)
        return first < end ? first..<end : first..<first
    }

    /// The rows on screen, in row order: `visibleRows` without the items of a collection floor that ended
    /// above the viewport's top while an item beside them had not. What is announced, listed and drawn.
    public func rowsOnScreen(in viewport: Viewport) -> [Int] {
        let range = visibleRows(in: viewport)
        guard !collections.isEmpty else { return Array(range) }
        return range.filter { !isPlacedItem(row: $0) || rows[$0].bottom > viewport.offset || rows[$0].height == 0 }
    }

    /// The sticky row pinned at the viewport's top, if any. One rule for every sticky row, header or not:
    /// the last sticky row that has scrolled above the top stays pinned while the rows of its floor below
    /// it are at the top; the end of its floor pushes it up as it leaves (so it never covers the next
    /// floor, as a table's section header does), and so does the next sticky row below, of this floor or a
    /// later one, which then takes over. O(log n).
    public func pinnedHeader(in viewport: Viewport) -> PinnedHeader? {
        guard let top = visibleRows(in: viewport).first else { return nil }
        let above = rows.stickyRowsStarting(before: viewport.offset)
        guard above > 0 else { return nil }
        let sticky = rows.stickyRows[above - 1]
        let section = Int(rows[sticky].section)
        guard section == Int(rows[top].section) else { return nil }
        let height = rows[sticky].height
        // Pushed up by the end of its floor (it never covers the next floor's rows) and by the next sticky row.
        var y = min(0, floorBottom(section) - viewport.offset - height)
        if above < rows.stickyRows.count {
            y = min(y, rows[rows.stickyRows[above]].top - viewport.offset - height)
        }
        guard y > -height else { return nil }
        return PinnedHeader(row: sticky, floor: sections[section].floorID, y: y)
    }

    /// Where section `section`'s floor ends: its last row's bottom, or its lowest item's (a collection).
    package func floorBottom(_ section: Int) -> Double {
        let end = rows(ofSection: section).upperBound
        return end < rows.count ? rows[end].top : rows.totalHeight
    }
}
