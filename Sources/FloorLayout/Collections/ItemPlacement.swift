import CFloorABI
import FloorRuntime

extension RowTable {
    /// The FLOOR_ROW_* bits a plugin may set; the bits above are the host's (an item's column).
    package static let pluginFlags: UInt32 = 0x00FF_FFFF

    /// Lays rows out from row `first` on: a row of a list floor, or a row of a collection floor without
    /// FLOOR_ROW_ITEM, starts where everything above it ends and spans the width; an item row of a
    /// collection floor (`collections[section]`) is placed into a column by its floor's ColumnPlacer, and
    /// the row after the items starts below the lowest of them. `sectionStart` is the adapter's (the first
    /// row of each section).
    ///
    /// Cost: O(rows from `first`), as RowTable.recomputeTops, except where `first` falls inside a collection
    /// floor before the row its placing stopped at (an item changed, not appended): that floor is placed
    /// again from its first row. Rows before `first` do not move: a next page's items continue their
    /// columns from where the floor's placing stopped.
    ///
    /// `end` (nil: the row count) is the row the walk stops before, a collection floor's first row or after
    /// its last: the rows from it on are left as they are, and `totalHeight` is where they would start (a page
    /// measured as it is drawn, Adapter's `.asReached`, is laid out as it is measured).
    package mutating func layOut(
        from first: Int, to end: Int? = nil, sectionStart: [Int], collections: inout [Int: PlacedCollection]
    ) {
        guard !collections.isEmpty else { return recomputeTops(from: first, to: end) }
        guard count > 0 else { return recomputeTops(from: 0) }
        let end = end ?? count
        var start = min(first, count)
        var placer: ColumnPlacer?
        var y = 0.0
        // Where the walk starts: a collection floor's rows resume its placer or start the floor again. A
        // floor's PlacedCollection is taken out of the dictionary while it changes, so that its column lists
        // are uniquely referenced and grow in place (a copy would cost O(items) on every next page).
        let section = Int(self[min(start, count - 1)].section)
        if var placed = collections.removeValue(forKey: section) {
            let floorStart = sectionStart[section]
            if let resume = placed.resume, floorStart + resume.row <= start {
                start = floorStart + resume.row
                placer = resume.placer
                // Items placed after the resume point are placed again (an extend replaced them).
                for c in placed.columnRows.indices {
                    while let last = placed.columnRows[c].last, Int(last) >= resume.row {
                        placed.columnRows[c].removeLast()
                    }
                }
            } else {
                start = floorStart
                for c in placed.columnRows.indices { placed.columnRows[c].removeAll(keepingCapacity: true) }
            }
            placed.resume = nil
            collections[section] = placed
        }
        if placer == nil { y = flow(before: start, sectionStart: sectionStart, collections: collections) }
        var current = start < count ? Int(self[start].section) : -1
        var collection = current >= 0 ? collections.removeValue(forKey: current) : nil
        var floorStart = current >= 0 ? sectionStart[current] : 0
        /// Ends a run of items: the row after them starts below the lowest, and the floor's placing may resume
        /// from here.
        func close(at r: Int) {
            guard let done = placer else { return }
            y = done.bottom
            collection?.resume = (done, r - floorStart)
            placer = nil
        }
        totalHeight = withRows { rows in
            for r in start..<max(start, end) {
                let row = rows[r]
                if Int(row.section) != current {
                    close(at: r)
                    if current >= 0, let collection { collections[current] = collection }
                    current = Int(row.section)
                    floorStart = sectionStart[current]
                    collection = collections.removeValue(forKey: current)
                    if collection != nil {
                        for c in collection!.columnRows.indices {
                            collection!.columnRows[c].removeAll(keepingCapacity: true)
                        }
                        collection!.resume = nil
                    }
                }
                if collection != nil && row.flags & FLOOR_ROW_ITEM != 0 {
                    if placer == nil { placer = ColumnPlacer(collection!.layout, top: y) }
                    let (column, top) = placer!.place(height: row.height)
                    rows[r].top = top
                    rows[r].column = column
                    collection!.columnRows[column].append(UInt32(r - floorStart))
                } else {
                    close(at: r)
                    rows[r].top = y
                    rows[r].column = 0
                    y += row.height
                }
            }
            close(at: max(start, end))
            if current >= 0, let collection { collections[current] = collection }
            return y
        }
    }

    /// Where a full-width row right after row `r - 1` starts: that row's bottom, or when it is an item, the
    /// lowest bottom of its run of items (its floor's resume point says it when the run ends the placing,
    /// as it does whenever a later floor is laid out again; else the run is searched backwards).
    package func flow(before r: Int, sectionStart: [Int], collections: [Int: PlacedCollection]) -> Double {
        guard r > 0 else { return 0 }
        let last = self[r - 1]
        let section = Int(last.section)
        guard last.flags & FLOOR_ROW_ITEM != 0, let collection = collections[section] else { return last.bottom }
        if let resume = collection.resume, sectionStart[section] + resume.row == r { return resume.placer.bottom }
        var bottom = last.bottom
        var q = r - 1
        while q >= sectionStart[section], self[q].flags & FLOOR_ROW_ITEM != 0 {
            bottom = max(bottom, self[q].bottom)
            q -= 1
        }
        return bottom
    }
}
