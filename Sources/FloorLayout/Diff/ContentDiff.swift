import FloorRuntime

/// What an editor changed in a page, in the page's own words: floors added, deleted or moved (by type and
/// id), items added, deleted or moved within their floor (by id), and every field whose value changed,
/// with its value before and after. Read from the two versions' JSON (PageContent), before and apart from
/// what the change does on screen (PageDiff): `floorhost diff` says this first. Floors and items are paired
/// by ListDiff, so a move is the fewest moves that explain the new order, as on screen. Pure; any thread.
public struct ContentDiff: Sendable {
    public enum Change: String, Sendable {
        case added, deleted, moved, changed
    }

    /// One line of the diff. Its subject is the page (floor nil), a floor (item nil) or an item, and with
    /// `field`, that subject's field: then `change` is the field's (added: it was not there; deleted: it is
    /// not there any more; changed: its value differs) and `old`/`new` are its values as JSON text.
    public struct Line: Sendable, Equatable {
        public var change: Change
        /// The floor's id (or its path when it has none) and type; nil for the page's own fields.
        public var floor: String?
        public var floorType: String?
        /// The item's id (or its path in `items` when it has none).
        public var item: String?
        /// A leaf's name: `price`, `header.title`, `jump.url`, `tags[0]`.
        public var field: String?
        /// A field's values as JSON text (`59.9`, `"¥59.90"`); nil where the field is absent.
        public var old: String?
        public var new: String?
        /// Where the subject was and is: `floors[2]`, `floors[4].items[1]` (nil: the page, or absent).
        public var oldPath: String?
        public var newPath: String?
    }

    /// In the new page's order (a deleted floor or item where it was): the page's fields, then each floor
    /// that changed, with its own fields, then its items.
    public private(set) var lines: [Line] = []

    public var isEmpty: Bool { lines.isEmpty }

    public init(old: PageContent, new: PageContent) {
        lines += Self.fields(old.fields, new.fields) {
            Line(change: $0, field: $1, old: $2, new: $3)
        }
        let diff = ListDiff(old: old.floors.map(\.key), new: new.floors.map(\.key)) { j, i in
            old.floors[j].fields == new.floors[i].fields
                && old.floors[j].items.map(\.fields) == new.floors[i].items.map(\.fields)
                && old.floors[j].items.map(\.key) == new.floors[i].items.map(\.key)
        }
        let moved = Set(diff.moves)
        for (j, i) in Self.order(diff) {
            switch (j, i) {
            case (let j?, nil):
                let floor = old.floors[j]
                lines.append(
                    Line(change: .deleted, floor: floor.name, floorType: floor.type, oldPath: "floors[\(floor.index)]"))
            case (nil, let i?):
                let floor = new.floors[i]
                lines.append(
                    Line(change: .added, floor: floor.name, floorType: floor.type, newPath: "floors[\(floor.index)]"))
            case (let j?, let i?):
                lines += Self.floor(old.floors[j], new.floors[i], moved: moved.contains(i))
            default: break
            }
        }
    }

    /// A floor paired across the versions: its move, its own fields, its items.
    private static func floor(_ old: PageContent.Floor, _ new: PageContent.Floor, moved: Bool) -> [Line] {
        let oldPath = "floors[\(old.index)]"
        let newPath = "floors[\(new.index)]"
        var lines: [Line] = []
        if moved {
            lines.append(
                Line(change: .moved, floor: new.name, floorType: new.type, oldPath: oldPath, newPath: newPath))
        }
        lines += fields(old.fields, new.fields) {
            Line(
                change: $0, floor: new.name, floorType: new.type, field: $1, old: $2, new: $3, oldPath: oldPath,
                newPath: newPath)
        }
        let diff = ListDiff(old: old.items.map(\.key), new: new.items.map(\.key)) { j, i in
            old.items[j].fields == new.items[i].fields
        }
        let movedItems = Set(diff.moves)
        func line(_ change: Change, _ item: PageContent.Item, old a: PageContent.Item?, new b: PageContent.Item?)
            -> Line
        {
            Line(
                change: change, floor: new.name, floorType: new.type, item: item.id ?? "items[\(item.index)]",
                oldPath: a.map { "\(oldPath).items[\($0.index)]" }, newPath: b.map { "\(newPath).items[\($0.index)]" })
        }
        for (j, i) in order(diff) {
            switch (j, i) {
            case (let j?, nil): lines.append(line(.deleted, old.items[j], old: old.items[j], new: nil))
            case (nil, let i?): lines.append(line(.added, new.items[i], old: nil, new: new.items[i]))
            case (let j?, let i?):
                let (a, b) = (old.items[j], new.items[i])
                if movedItems.contains(i) { lines.append(line(.moved, b, old: a, new: b)) }
                let base = line(.changed, b, old: a, new: b)
                lines += fields(a.fields, b.fields) { change, field, before, after in
                    var l = base
                    (l.change, l.field, l.old, l.new) = (change, field, before, after)
                    return l
                }
            default: break
            }
        }
        return lines
    }

    /// The leaves that differ: those of `old` in its order (changed or deleted), then those only `new` has.
    private static func fields(
        _ old: PageContent.Fields, _ new: PageContent.Fields,
        _ line: (Change, String, String?, String?) -> Line
    ) -> [Line] {
        var lines: [Line] = []
        for name in old.names {
            switch new[name] {
            case nil: lines.append(line(.deleted, name, old[name], nil))
            case let value? where value != old[name]: lines.append(line(.changed, name, old[name], value))
            default: break
            }
        }
        for name in new.names where old[name] == nil { lines.append(line(.added, name, nil, new[name])) }
        return lines
    }

    /// The pairs of a diff in the new order, each deleted element right after the new element its last
    /// predecessor that stayed in place became (first, when none did): where it was, as far as the new
    /// list allows (as PageDiff lists deleted floors).
    private static func order(_ diff: ListDiff) -> [(old: Int?, new: Int?)] {
        let moved = Set(diff.moves)
        var deletedAfter: [Int: [Int]] = [:]
        var predecessor = -1
        for (j, i) in diff.newIndexOfOld.enumerated() {
            if let i {
                if !moved.contains(i) { predecessor = i }
            } else {
                deletedAfter[predecessor, default: []].append(j)
            }
        }
        var pairs: [(old: Int?, new: Int?)] = (deletedAfter[-1] ?? []).map { ($0, nil) }
        for (i, j) in diff.oldIndexOfNew.enumerated() {
            pairs.append((j, i))
            pairs += (deletedAfter[i] ?? []).map { ($0, nil) }
        }
        return pairs
    }
}
