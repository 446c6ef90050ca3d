/// Every laid-out row of a page, column-wise: a few machine words per row on the host side.
/// Row r belongs to section `section[r]`, is row `index[r]` of its floor, and is dispatched by `type[r]`.
/// `top` is a prefix sum of heights with one extra entry: row r spans top[r] ..< top[r + 1], so y-of-row
/// is O(1), row-at-offset a binary search, and appending k rows O(k).
struct RowTable {
    var section: [UInt32] = []
    var index: [UInt32] = []
    var type: [Int32] = []
    var flags: [UInt32] = []
    /// The height cache: valid for every row once the adapter has measured.
    var height: [Double] = []
    var top: [Double] = [0]

    /// One row as expand lists it, before it is measured.
    struct Expanded {
        var index: UInt32
        var type: Int32
        var flags: UInt32
    }

    var count: Int { type.count }
    var totalHeight: Double { top[top.count - 1] }

    /// Replaces rows `range` with `rows` of `section`, unmeasured (height NaN). Offsets from
    /// `range.lowerBound` on are stale until `recomputeTops(from:)`.
    mutating func replace(_ range: Range<Int>, with rows: some Collection<Expanded>, section: Int) {
        reserve(count - range.count + rows.count)
        self.section.replaceSubrange(range, with: repeatElement(UInt32(section), count: rows.count))
        index.replaceSubrange(range, with: rows.map(\.index))
        type.replaceSubrange(range, with: rows.map(\.type))
        flags.replaceSubrange(range, with: rows.map(\.flags))
        height.replaceSubrange(range, with: repeatElement(.nan, count: rows.count))
        top.replaceSubrange((range.lowerBound + 1)..<(range.upperBound + 1), with: repeatElement(0, count: rows.count))
    }

    /// Makes room for `needed` rows with headroom (half again, at least 1,024 rows) in every column, so
    /// that appending a next page copies nothing until the headroom is used: appends cost O(rows added).
    /// The headroom is also written once, here: the first write to a fresh page of memory costs a page
    /// fault (microseconds on a VM), which belongs to the layout that reserved it, not to the first
    /// next page (BENCHMARKS.md, "Appending a next page").
    private mutating func reserve(_ needed: Int) {
        guard needed > type.capacity else { return }
        let capacity = needed + max(needed / 2, 1024)
        func prepare<T>(_ column: inout [T], _ filler: T, extra: Int = 0) {
            let count = column.count
            column.reserveCapacity(capacity + extra)
            column.append(contentsOf: repeatElement(filler, count: capacity + extra - count))
            column.removeLast(capacity + extra - count)
        }
        prepare(&section, 0)
        prepare(&index, 0)
        prepare(&type, 0)
        prepare(&flags, 0)
        prepare(&height, 0)
        prepare(&top, 0, extra: 1)
    }

    /// Rebuilds the prefix sums from row `first` on: O(count - first).
    mutating func recomputeTops(from first: Int) {
        var y = top[first]
        for r in first..<count {
            y += height[r]
            top[r + 1] = y
        }
    }

    /// The row under offset `y` (clamped to the first and last rows); nil when there are no rows.
    func row(at y: Double) -> Int? {
        guard count > 0 else { return nil }
        var low = 0, high = count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if top[mid] <= y { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The first row whose bottom is below `y` (count when none).
    func firstRow(endingAfter y: Double) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if top[mid + 1] > y { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// The number of rows whose top is above `y`.
    func rowsStarting(before y: Double) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if top[mid] < y { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
