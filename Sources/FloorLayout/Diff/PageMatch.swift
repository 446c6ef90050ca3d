import FloorRuntime

/// A page's sections and rows at one moment: what a reload compares (the page on screen before it, and
/// the new version, expanded but not yet measured).
package struct LaidOutPage {
    package let sections: [Page.Section]
    /// The first row of each section, plus the row count at the end.
    package let sectionStart: [Int]
    package let rows: RowTable

    package func rows(of section: Int) -> Range<Int> { sectionStart[section]..<sectionStart[section + 1] }
}

/// How the rows of a new version of a page pair with the rows on screen (the first half of a reload,
/// before anything is measured): floors are paired by FloorKey, and the rows of a floor whose content
/// changed by RowIdentity, each with Heckel's algorithm. O(floors + rows of changed floors) hashing, no
/// plugin call.
package struct PageMatch {
    /// Floors: old sections against new sections.
    package let floors: ListDiff
    /// For each new section whose floor was paired but changed: its rows' diff (old rows of the paired
    /// section against its new rows, indices within the floors), and the identities (for the item ids).
    package let rowDiffs: [Int: (diff: ListDiff, old: [RowIdentity], new: [RowIdentity])]
    /// For each new row, the old row it is (nil: a new row).
    package let oldRowOfNew: [Int?]
    /// For each new row, whether it shows what its old row showed: its cached heights are kept.
    package let keepsHeight: [Bool]
    /// New rows that are where they were relative to the rest (not in an inserted, moved or updated place):
    /// the content a change's "shift below" is measured on.
    package let stable: [Bool]

    package init(old: LaidOutPage, new: LaidOutPage) {
        let oldKeys = old.sections.map(FloorKey.init)
        let newKeys = new.sections.map(FloorKey.init)
        func sameRows(_ j: Int, _ i: Int) -> Bool {
            let a = old.rows(of: j)
            let b = new.rows(of: i)
            guard a.count == b.count else { return false }
            for (r, s) in zip(a, b)
            where old.rows[r].type != new.rows[s].type || old.rows[r].flags != new.rows[s].flags
                || old.rows[r].index != new.rows[s].index
            { return false }
            return true
        }
        floors = ListDiff(old: oldKeys, new: newKeys) { j, i in
            old.sections[j].signature.whole == new.sections[i].signature.whole && sameRows(j, i)
        }
        let rowCount = new.rows.count
        var oldRowOfNew = [Int?](repeating: nil, count: rowCount)
        var keepsHeight = [Bool](repeating: false, count: rowCount)
        var stable = [Bool](repeating: false, count: rowCount)
        var rowDiffs: [Int: (diff: ListDiff, old: [RowIdentity], new: [RowIdentity])] = [:]
        let updated = Set(floors.updates)
        let moved = Set(floors.moves)
        for (i, paired) in floors.oldIndexOfNew.enumerated() {
            guard let j = paired else { continue }
            let a = old.rows(of: j)
            let b = new.rows(of: i)
            if !updated.contains(i) {
                for (r, s) in zip(a, b) {
                    oldRowOfNew[s] = r
                    keepsHeight[s] = true
                    stable[s] = !moved.contains(i)
                }
                continue
            }
            let before = RowIdentity.rows(
                of: old.sections[j].signature, types: a.lazy.map { old.rows[$0].type },
                flags: a.lazy.map { old.rows[$0].flags })
            let after = RowIdentity.rows(
                of: new.sections[i].signature, types: b.lazy.map { new.rows[$0].type },
                flags: b.lazy.map { new.rows[$0].flags })
            let diff = ListDiff(old: before.map(\.key), new: after.map(\.key)) { x, y in
                before[x].content == after[y].content
            }
            rowDiffs[i] = (diff, before, after)
            let changed = Set(diff.updates)
            let rowMoved = Set(diff.moves)
            for (k, x) in diff.oldIndexOfNew.enumerated() {
                guard let x else { continue }
                oldRowOfNew[b.lowerBound + k] = a.lowerBound + x
                keepsHeight[b.lowerBound + k] = !changed.contains(k)
                stable[b.lowerBound + k] = !changed.contains(k) && !rowMoved.contains(k) && !moved.contains(i)
            }
        }
        self.rowDiffs = rowDiffs
        self.oldRowOfNew = oldRowOfNew
        self.keepsHeight = keepsHeight
        self.stable = stable
    }

    /// Per-row heights for the new rows: the old row's where the height is kept, NaN elsewhere (measured).
    package func heights(from old: [Double]) -> [Double] {
        oldRowOfNew.indices.map { s in keepsHeight[s] ? old[oldRowOfNew[s]!] : .nan }
    }
}
