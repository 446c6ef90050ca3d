import FloorRuntime

/// Places a collection floor's items into columns, one item at a time in item order (docs/ABI.md,
/// "Collections"): the one placing rule every front end and output shares.
///
/// - grid: item i goes to column i mod columns; a line starts below the tallest item of the line above it
///   (plus the line gap), so each line is as tall as its tallest item.
/// - waterfall: each item goes to the column whose next free top is highest (the shortest column), the
///   left one on a tie; an item under another starts the line gap below it.
///
/// Placing depends only on the items before, never after: appending items moves nothing placed, and a
/// placer saved after item n continues with item n + 1 exactly as one that placed them all would (which
/// is what makes a next page's append cost O(items added)). A placer is a few words and no allocation
/// (FLOOR_COLUMNS_MAX columns inline). Item tops never decrease in item order, in both layouts: the row
/// table's binary searches over tops stay valid.
package struct ColumnPlacer: Sendable, Equatable {
    package let layout: CollectionLayout
    /// The top of the item area: where the first line starts.
    package let top: Double
    /// Per column, where its next item would start (`top` while it is empty). Six inline slots.
    private var next: (Double, Double, Double, Double, Double, Double)
    /// The lowest bottom of any item placed: the item area's end (`top` while empty).
    package private(set) var bottom: Double
    /// Items placed so far.
    package private(set) var placed = 0
    /// Grid only: the current line's top and its tallest bottom so far.
    private var lineTop: Double
    private var lineBottom: Double

    package init(_ layout: CollectionLayout, top: Double) {
        self.layout = layout
        self.top = top
        next = (top, top, top, top, top, top)
        bottom = top
        lineTop = top
        lineBottom = top
    }

    /// Places the next item, `height` points high: its column and its top.
    package mutating func place(height: Double) -> (column: Int, top: Double) {
        defer { placed += 1 }
        switch layout.kind {
        case .grid:
            let column = placed % layout.columns
            if column == 0 && placed > 0 { lineTop = lineBottom + layout.lineGap }
            if column == 0 { lineBottom = lineTop }
            lineBottom = max(lineBottom, lineTop + height)
            bottom = max(bottom, lineBottom)
            return (column, lineTop)
        case .waterfall:
            var column = 0
            var best = self[0]
            for c in 1..<layout.columns where self[c] < best {
                best = self[c]
                column = c
            }
            self[column] = best + height + layout.lineGap
            bottom = max(bottom, best + height)
            return (column, best)
        }
    }

    /// The next free top of column `c`.
    private subscript(c: Int) -> Double {
        get {
            switch c {
            case 0: next.0
            case 1: next.1
            case 2: next.2
            case 3: next.3
            case 4: next.4
            default: next.5
            }
        }
        set {
            switch c {
            case 0: next.0 = newValue
            case 1: next.1 = newValue
            case 2: next.2 = newValue
            case 3: next.3 = newValue
            case 4: next.4 = newValue
            default: next.5 = newValue
            }
        }
    }

    package static func == (a: ColumnPlacer, b: ColumnPlacer) -> Bool {
        a.layout == b.layout && a.top == b.top && a.bottom == b.bottom && a.placed == b.placed
            && a.lineTop == b.lineTop && a.lineBottom == b.lineBottom && (0..<6).allSatisfy { a[$0] == b[$0] }
    }
}
