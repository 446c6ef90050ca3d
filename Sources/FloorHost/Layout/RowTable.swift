/// Every laid-out row of a page, column-wise: a few machine words per row on the host side.
/// Row r belongs to section `section[r]`, is row `index[r]` of its floor, and is dispatched by `type[r]`.
/// `top` is a prefix sum of heights with one extra entry: row r spans top[r] ..< top[r + 1], so y-of-row
/// is O(1) and row-at-offset a binary search.
struct RowTable {
    var section: [UInt32] = []
    var index: [UInt32] = []
    var type: [Int32] = []
    var flags: [UInt32] = []
    var height: [Double] = []
    var top: [Double] = [0]

    var count: Int { type.count }
    var totalHeight: Double { top[top.count - 1] }

    mutating func append(section: Int, index: Int, type: Int32, flags: UInt32) {
        self.section.append(UInt32(section))
        self.index.append(UInt32(index))
        self.type.append(type)
        self.flags.append(flags)
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
}
