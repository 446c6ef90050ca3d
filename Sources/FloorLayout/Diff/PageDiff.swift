import CFloorABI
import FloorRuntime

/// What a new version of a page changes on screen, floor by floor and row by row, after the new version
/// is laid out (Adapter.reload): floors inserted, deleted, moved or updated, the rows of each updated floor
/// that changed, every place and height before and after, and how far the content below each change moves.
/// `floorhost diff` prints it; PageSession.reload uses it to keep the screen on the same content.
public struct PageDiff: Sendable {
    public enum Change: String, Sendable {
        case inserted, deleted, moved, updated
        /// Moved and, at its new place, showing something else.
        case movedAndUpdated = "moved+updated"
    }

    /// Where a floor is (or was) on its page.
    public struct FloorPlace: Sendable, Equatable {
        /// Its section (floor) number on the laid-out page: what `--tap` and `--gutter` call SECTION.
        public var section: Int
        /// Its JSON path on its page ("floors[3]") and the page file.
        public var path: String
        public var file: String
        public var y: Double
        public var height: Double
        public var rows: Int
    }

    /// Where a row is (or was).
    public struct RowPlace: Sendable, Equatable {
        /// Its number within its floor, and page-wide.
        public var row: Int
        public var index: Int
        public var y: Double
        public var height: Double
        /// The column of an item of a grid or a waterfall (ABI 1.5); nil for a full-width row.
        public var column: Int? = nil
    }

    /// An item of a page: its floor's index in the page's `floors`, its own in the floor's `items`.
    public struct ItemPlace: Sendable, Equatable {
        public var floor: Int
        public var item: Int
    }

    public struct RowChange: Sendable {
        public var change: Change
        /// The row model type name.
        public var type: String
        /// The id of the item the row draws, when the floor lists one row per item and the item has an id:
        /// read from the pages' content (`namingItems`, which `floorhost diff` calls), since the floors'
        /// signatures keep only the ids' hashes; nil before.
        public var item: String?
        /// Where that item is on the page before and on the page now (on the page the row is on; nil when
        /// the row draws no item with an id). Within a floor a next page extended, past the first page's
        /// items, it counts the appended items too.
        public var oldItem: ItemPlace?
        public var newItem: ItemPlace?
        public var old: RowPlace?
        public var new: RowPlace?
        /// How far the content right below this change moves (points, + is down), with every change above
        /// it counted: where the content actually goes on screen.
        public var shiftBelow: Double
        /// This change's own part of that: its height now minus its height before.
        public var heightChange: Double { (new?.height ?? 0) - (old?.height ?? 0) }
    }

    public struct FloorChange: Sendable {
        public var change: Change
        public var floor: String
        public var type: String
        public var old: FloorPlace?
        public var new: FloorPlace?
        /// For an updated floor: its rows that changed, in new order (deleted ones where they were).
        public var rows: [RowChange]
        /// How far the content right below this change moves (points, + is down), every change above it
        /// counted.
        public var shiftBelow: Double
        /// For a moved floor: how far what followed its old place moves (its leaving pulls it up).
        public var shiftBelowOldPlace: Double?
        /// This change's own part: the floor's height now minus before (a move counts +h and -h: 0).
        public var heightChange: Double { (new?.height ?? 0) - (old?.height ?? 0) }
    }

    /// In the new page's order; a deleted floor is listed where it was.
    public var floors: [FloorChange] = []
    public var oldHeight: Double = 0
    public var newHeight: Double = 0
    /// New rows whose cached heights were kept, and rows measured (inserted or updated ones).
    public var rowsKept = 0
    public var rowsMeasured = 0
    /// For each new row, the old row it is, if any (updated rows included): where a screen stays.
    public var oldRowOfNew: [Int?] = []
    /// For each new row, whether it shows what its old row showed (its cached heights were kept).
    public var keptRows: [Bool] = []

    /// Nothing on screen changes: no floor or row was inserted, deleted, moved or updated.
    public var isEmpty: Bool { floors.isEmpty }

    /// The report, from the page before (`old`), the page now (`new`, laid out) and how they paired.
    package init(old: LaidOutPage, new: LaidOutPage, match: PageMatch, registry: Registry) {
        oldHeight = old.rows.totalHeight
        newHeight = new.rows.totalHeight
        oldRowOfNew = match.oldRowOfNew
        keptRows = match.keepsHeight
        rowsKept = match.keepsHeight.lazy.filter { $0 }.count
        rowsMeasured = new.rows.count - rowsKept
        // The shift below new row p: how far the first stable row at or after p moved.
        var nextStable = [Int](repeating: -1, count: new.rows.count + 1)
        for s in stride(from: new.rows.count - 1, through: 0, by: -1) {
            nextStable[s] = match.stable[s] ? s : nextStable[s + 1]
        }
        let pageShift = newHeight - oldHeight
        func shift(below p: Int) -> Double {
            let s = nextStable[min(p, new.rows.count)]
            guard s >= 0 else { return pageShift }
            return new.rows[s].top - old.rows[match.oldRowOfNew[s]!].top
        }
        func place(_ page: LaidOutPage, _ section: Int) -> FloorPlace {
            let rows = page.rows(of: section)
            let info = page.sections[section]
            let top =
                rows.isEmpty
                ? (rows.lowerBound < page.rows.count ? page.rows[rows.lowerBound].top : page.rows.totalHeight)
                : page.rows[rows.lowerBound].top
            // Where the next floor starts: a collection floor ends at its lowest item, not at its last row.
            let bottom =
                rows.isEmpty
                ? top : rows.upperBound < page.rows.count ? page.rows[rows.upperBound].top : page.rows.totalHeight
            return FloorPlace(
                section: section, path: info.path, file: info.file, y: top, height: bottom - top, rows: rows.count)
        }
        func rowPlace(_ page: LaidOutPage, _ r: Int) -> RowPlace {
            let row = page.rows[r]
            let item = row.flags & FLOOR_ROW_ITEM != 0 && page.sections[Int(row.section)].collection != nil
            return RowPlace(
                row: Int(row.index), index: r, y: row.top, height: row.height, column: item ? row.column : nil)
        }
        func typeName(_ page: LaidOutPage, _ r: Int) -> String { registry.rowTypes[Int(page.rows[r].type)].name }

        // Each deleted floor goes right after the new section its last old predecessor that stayed in place
        // became (first, when none did): where it was, as far as the new page allows.
        let diff = match.floors
        let moved = Set(diff.moves)
        let updated = Set(diff.updates)
        var deletedAfter: [Int: [Int]] = [:]
        var oldPlaceShift: [Int: Double] = [:]
        var predecessor = -1
        for j in old.sections.indices {
            if let i = diff.newIndexOfOld[j], !moved.contains(i) {
                predecessor = i
            } else if let i = diff.newIndexOfOld[j] {
                oldPlaceShift[i] = shift(below: predecessor < 0 ? 0 : new.sectionStart[predecessor + 1])
            } else {
                deletedAfter[predecessor, default: []].append(j)
            }
        }
        func deleted(after i: Int) {
            let p = i < 0 ? 0 : new.sectionStart[i + 1]
            for j in deletedAfter[i] ?? [] {
                floors.append(
                    FloorChange(
                        change: .deleted, floor: old.sections[j].floorID, type: old.sections[j].floorType,
                        old: place(old, j), new: nil, rows: [], shiftBelow: shift(below: p)))
            }
        }
        deleted(after: -1)
        for i in new.sections.indices {
            defer { deleted(after: i) }
            let section = new.sections[i]
            let end = new.sectionStart[i + 1]
            guard let j = diff.oldIndexOfNew[i] else {
                floors.append(
                    FloorChange(
                        change: .inserted, floor: section.floorID, type: section.floorType, old: nil,
                        new: place(new, i), rows: [], shiftBelow: shift(below: end)))
                continue
            }
            var rows: [RowChange] = []
            if updated.contains(i), let (rowDiff, before, after) = match.rowDiffs[i] {
                rows = Self.rowChanges(
                    rowDiff, before: before, after: after, oldStart: old.sectionStart[j],
                    newStart: new.sectionStart[i], oldFloor: Int(old.sections[j].origin.floor),
                    newFloor: Int(section.origin.floor), old: old, new: new,
                    shift: shift(below:), place: rowPlace, typeName: typeName)
            }
            let change: Change? =
                moved.contains(i) ? (rows.isEmpty ? .moved : .movedAndUpdated) : (rows.isEmpty ? nil : .updated)
            guard let change else { continue }
            floors.append(
                FloorChange(
                    change: change, floor: section.floorID, type: section.floorType, old: place(old, j),
                    new: place(new, i), rows: rows, shiftBelow: shift(below: end), shiftBelowOldPlace: oldPlaceShift[i])
            )
        }
    }

    /// The changed rows of one updated floor, in its new order, deleted rows where they were.
    private static func rowChanges(
        _ diff: ListDiff, before: [RowIdentity], after: [RowIdentity], oldStart: Int, newStart: Int,
        oldFloor: Int, newFloor: Int, old: LaidOutPage, new: LaidOutPage, shift: (Int) -> Double,
        place: (LaidOutPage, Int) -> RowPlace, typeName: (LaidOutPage, Int) -> String
    ) -> [RowChange] {
        var changes: [RowChange] = []
        var deletedAfter: [Int: [Int]] = [:]
        var predecessor = -1
        let moved = Set(diff.moves)
        let updated = Set(diff.updates)
        for x in before.indices {
            if let k = diff.newIndexOfOld[x] {
                if !moved.contains(k) { predecessor = k }
            } else {
                deletedAfter[predecessor, default: []].append(x)
            }
        }
        func deleted(after k: Int) {
            for x in deletedAfter[k] ?? [] {
                changes.append(
                    RowChange(
                        change: .deleted, type: typeName(old, oldStart + x),
                        oldItem: before[x].item.map { ItemPlace(floor: oldFloor, item: $0) },
                        old: place(old, oldStart + x), new: nil, shiftBelow: shift(newStart + k + 1)))
            }
        }
        deleted(after: -1)
        for k in after.indices {
            defer { deleted(after: k) }
            let r = newStart + k
            let change: Change
            switch (diff.oldIndexOfNew[k], moved.contains(k), updated.contains(k)) {
            case (nil, _, _): change = .inserted
            case (_, true, true): change = .movedAndUpdated
            case (_, true, false): change = .moved
            case (_, false, true): change = .updated
            case (_, false, false): continue
            }
            changes.append(
                RowChange(
                    change: change, type: typeName(new, r),
                    oldItem: diff.oldIndexOfNew[k].flatMap { before[$0].item }.map {
                        ItemPlace(floor: oldFloor, item: $0)
                    },
                    newItem: after[k].item.map { ItemPlace(floor: newFloor, item: $0) },
                    old: diff.oldIndexOfNew[k].map { place(old, oldStart + $0) }, new: place(new, r),
                    shiftBelow: shift(r + 1)))
        }
        return changes
    }
}
