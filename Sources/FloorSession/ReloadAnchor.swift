import FloorLayout

/// What keeps a screen on the same content across a reload: the row at the viewport's top edge and how
/// far into it the edge was. After the reload the edge goes to that row's new place, the same distance
/// into it (at most its new height); when the row is gone, to the top of the first row after it that
/// survived (else the bottom of the last one before it; else the top of the page).
package struct ReloadAnchor {
    package let row: Int?
    package let into: Double

    package init(_ adapter: Adapter, at offset: Double) {
        row = adapter.row(at: offset)
        into = row.map { offset - adapter.describe(row: $0).y } ?? 0
    }

    /// The offset that shows the anchored content in `adapter`, laid out after `diff`. O(rows).
    package func offset(after diff: PageDiff, oldRowCount: Int, in adapter: Adapter) -> Double {
        guard let row else { return 0 }
        var newOfOld = [Int?](repeating: nil, count: oldRowCount)
        for (r, old) in diff.oldRowOfNew.enumerated() { if let old { newOfOld[old] = r } }
        if let r = newOfOld[row] {
            let info = adapter.describe(row: r)
            return info.y + min(into, info.height)
        }
        if let r = newOfOld[(row + 1)...].lazy.compactMap({ $0 }).first { return adapter.describe(row: r).y }
        if let r = newOfOld[..<row].lazy.compactMap({ $0 }).last {
            let info = adapter.describe(row: r)
            return info.y + info.height
        }
        return 0
    }
}
