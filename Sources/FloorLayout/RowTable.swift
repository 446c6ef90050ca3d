import CFloorABI
import FloorRuntime
import HostContract

/// Every laid-out row of a page, one 32-byte record a row: row r belongs to section `section`, is row
/// `index` of its floor, is dispatched by `type`, and spans `top ..< top + height` (its bottom is the next
/// row's top, exactly: `top` is a prefix sum of heights). y-of-row is O(1), row-at-offset a binary search,
/// appending k rows O(k).
///
/// A row's fields live together (rather than one array per field) because every user of a row reads most
/// of them at once, and because a next page's rows then land in one place in memory: an append touches
/// the tail of one array, not of six (BENCHMARKS.md, "Appending a next page").
package struct RowTable {
    package init() {}

    /// The host's bits of a row's flags (above RowTable.pluginFlags): an item's column, an unusable height.
    package static let columnBits: UInt32 = 0x0700_0000
    package static let unusableHeightBits: UInt32 = 0x7000_0000

    package struct Row {
        package var section: UInt32
        package var index: UInt32
        package var type: Int32
        package var flags: UInt32
        /// The height cache: valid once the adapter has measured the row (NaN until then).
        package var height: Double
        package var top: Double

        package var bottom: Double { top + height }

        /// The column an item row of a collection floor was placed in (ItemPlacement.swift); 0 for every other
        /// row. Kept in the host's bits of `flags` (above RowTable.pluginFlags), so a row stays 32 bytes.
        package var column: Int {
            get { Int(flags >> 24 & 0x7) }
            set { flags = flags & ~RowTable.columnBits | (UInt32(truncatingIfNeeded: newValue) & 0x7) << 24 }
        }

        /// What the row's height calculator answered when it was no height (UnusableHeight): the row is then a
        /// placeholder the host draws. Nil for every other row. Kept in the host's bits 28-30 of `flags`.
        package var unusableHeight: UnusableHeight? {
            get { UnusableHeight(rawValue: flags >> 28 & 0x7) }
            set { flags = flags & ~RowTable.unusableHeightBits | (newValue?.rawValue ?? 0) << 28 }
        }
    }

    private var rows: [Row] = []
    /// The rows flagged FLOOR_ROW_STICKY, ascending: what pinning searches (Viewport.swift) in O(log n)
    /// instead of scanning a floor's rows. Kept in step by `replace`, the only place rows and flags change.
    package private(set) var stickyRows: [Int] = []
    /// The bottom of the last row (of the lowest item, when the page ends with a collection): the page's height.
    package internal(set) var totalHeight: Double = 0

    package var count: Int { rows.count }

    package subscript(r: Int) -> Row {
        get { rows[r] }
        set { rows[r] = newValue }
    }

    /// Replaces rows `range` with `rows` of `section`, unmeasured (height NaN). Offsets from
    /// `range.lowerBound` on are stale until `recomputeTops(from:)`.
    package mutating func replace(_ range: Range<Int>, with rows: some Collection<ExpandedRow>, section: Int) {
        reserve(count - range.count + rows.count)
        let section = UInt32(section)
        self.rows.replaceSubrange(
            range,
            with: rows.lazy.map {
                Row(
                    section: section, index: $0.index, type: $0.type, flags: $0.flags & Self.pluginFlags, height: .nan,
                    top: 0)
            })
        // Sticky rows are few: dropping those in `range`, shifting those after it and adding the new ones
        // costs O(sticky rows after range + rows added), so appending a next page stays O(rows added).
        let delta = rows.count - range.count
        let first = stickyRows.partitioningIndex { $0 >= range.lowerBound }
        let after = stickyRows.partitioningIndex { $0 >= range.upperBound }
        var added: [Int] = []
        for (k, row) in rows.enumerated() where row.flags & FLOOR_ROW_STICKY != 0 { added.append(range.lowerBound + k) }
        let shifted = delta == 0 ? Array(stickyRows[after...]) : stickyRows[after...].map { $0 + delta }
        stickyRows.replaceSubrange(first..., with: added + shifted)
    }

    /// Every row's cached height, in row order (NaN where unmeasured).
    package var heights: [Double] { rows.map(\.height) }

    /// `heights` (one per row, at any width) with NaN for every row shown as a placeholder for an unusable
    /// height: a reload's rows carry no such mark, so they are measured again (and marked again).
    package func forgettingUnusable(_ heights: [Double]) -> [Double] {
        zip(rows, heights).map { $0.unusableHeight == nil ? $1 : .nan }
    }

    /// Puts back heights saved by `heights` for the same rows (one per row). Offsets are stale until
    /// `recomputeTops(from: 0)`.
    package mutating func restore(heights: [Double]) {
        precondition(heights.count == rows.count, "one height per row")
        rows.withUnsafeMutableBufferPointer { rows in
            for r in rows.indices { rows[r].height = heights[r] }
        }
    }

    /// Makes room for `needed` rows with headroom (half again, at least 1,024 rows), so that appending a
    /// next page copies nothing until the headroom is used: appends cost O(rows added). The headroom is
    /// reserved, not written: untouched pages take no memory, so a page that never loads a next one does not
    /// keep a third of its row table resident for nothing (0.7 MB on the 8 MB page; BENCHMARKS.md, issue 23),
    /// and a next page pays the first write to its rows' pages (about 40 rows a 4 KB page) itself.
    package mutating func reserve(_ needed: Int) {
        guard needed > rows.capacity else { return }
        rows.reserveCapacity(needed + max(needed / 2, 1024))
    }

    /// Calls `body` with every row, for loops that must not pay an exclusivity check or a bounds check
    /// per row. The rows must not be added or removed inside.
    package mutating func withRows<R>(_ body: (UnsafeMutableBufferPointer<Row>) throws -> R) rethrows -> R {
        try rows.withUnsafeMutableBufferPointer { try body($0) }
    }

    /// Calls `body` with every row, read only: loops that read each row once without a bounds check a row.
    package func readingRows<R>(_ body: (UnsafeBufferPointer<Row>) throws -> R) rethrows -> R {
        try rows.withUnsafeBufferPointer { try body($0) }
    }

    /// Rebuilds the prefix sums from row `first` up to row `end` (nil: the last row): O(end - first).
    /// `totalHeight` is then the bottom of row `end - 1` (the page's height when `end` is the row count).
    package mutating func recomputeTops(from first: Int, to end: Int? = nil) {
        totalHeight = withRows { rows in
            var y = first == 0 ? 0 : rows[first - 1].bottom
            for r in first..<(end ?? rows.count) {
                rows[r].top = y
                y += rows[r].height
            }
            return y
        }
    }

    /// The row under offset `y` (clamped to the first and last rows); nil when there are no rows.
    package func row(at y: Double) -> Int? {
        guard count > 0 else { return nil }
        var low = 0
        var high = count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if rows[mid].top <= y { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The first row whose bottom is below `y` (count when none).
    package func firstRow(endingAfter y: Double) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if rows[mid].bottom > y { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// The number of sticky rows whose top is above `y`: `stickyRows[..<n]` have scrolled above it.
    package func stickyRowsStarting(before y: Double) -> Int {
        stickyRows.partitioningIndex { rows[$0].top >= y }
    }

    /// The number of rows whose top is above `y`.
    package func rowsStarting(before y: Double) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if rows[mid].top < y { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

extension Array where Element == Int {
    /// The first index whose element satisfies `predicate`, which must be false then true along the array.
    package func partitioningIndex(where predicate: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if predicate(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
