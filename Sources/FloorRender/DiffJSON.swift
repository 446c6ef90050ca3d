import FloorCore
import FloorLayout

/// `floorhost diff --format json`: one object, written from PageChanges as DiffText is (the same facts),
///
///     {"old":file, "new":file, "width":points, "same":bool,
///      "content":[{"change","floor"?,"floorType"?,"item"?,"field"?,"old"?,"new"?,"oldPath"?,"newPath"?}],
///      "height":{"old","new"}, "rows":{"kept","measured"},
///      "floors":[{"change","floor","type","old":place|null,"new":place|null,"heightChange","shiftBelow",
///                 "shiftBelowOldPlace"? (moves),"rows":[...]}],
///      "diagnostics":[...], "stats":{"heightCalls","heightsKept"}}
///
/// `content` is what the editor changed (ContentDiff), in the new page's order: a line without `floor` is
/// the page's own field; without `item`, the floor's; with `field`, `change` is the field's (added,
/// deleted, changed) and `old`/`new` are its values as JSON values (absent where the field is); without
/// `field`, the floor or item was added, deleted or moved (`oldPath`, `newPath`). `same` is true when
/// neither the content nor the screen changed.
/// A floor place is {section, path, file, y, height, rows}; a row change is {change, type, item|null,
/// old:{row, index, y, height, column (an item of a grid or waterfall only)}|null, new:..., heightChange,
/// shiftBelow}. `heightChange` is the change's own
/// (height now minus before); `shiftBelow` how far the content right below it moves, every change above
/// it counted; `shiftBelowOldPlace`, for a moved floor, how far what followed its old place moves. `change` is inserted, deleted, moved, updated or
/// moved+updated. `stats` counts the new version's layout only: the height calls it made (the rows it
/// measured) and the heights it kept.
public enum DiffJSON {
    public static func render(
        _ changes: PageChanges, old: String, new: String, width: Double, diagnostics: [Diagnostic],
        stats: Adapter.Stats
    ) -> [UInt8] {
        let diff = changes.screen
        var out = JSONWriter(capacity: 4096)
        out.raw("{")
        out.key("old")
        out.string(old)
        out.raw(",")
        out.key("new")
        out.string(new)
        out.raw(",")
        out.key("width")
        out.number(width)
        out.raw(",")
        out.key("same")
        out.raw(changes.isEmpty ? "true" : "false")
        out.raw(",")
        out.key("content")
        content(changes.content, &out)
        out.raw(",")
        out.key("height")
        out.raw("{")
        out.key("old")
        out.number(diff.oldHeight)
        out.raw(",")
        out.key("new")
        out.number(diff.newHeight)
        out.raw("}")
        out.raw(",")
        out.key("rows")
        out.raw("{")
        out.key("kept")
        out.number(diff.rowsKept)
        out.raw(",")
        out.key("measured")
        out.number(diff.rowsMeasured)
        out.raw("}")
        out.raw(",")
        out.key("floors")
        out.raw("[")
        for (i, floor) in diff.floors.enumerated() {
            if i > 0 { out.raw(",") }
            out.raw("{")
            out.key("change")
            out.string(floor.change.rawValue)
            out.raw(",")
            out.key("floor")
            out.string(floor.floor)
            out.raw(",")
            out.key("type")
            out.string(floor.type)
            for (name, place) in [("old", floor.old), ("new", floor.new)] {
                out.raw(",")
                out.string(name)
                out.raw(":")
                guard let place else {
                    out.raw("null")
                    continue
                }
                out.raw("{")
                out.key("section")
                out.number(place.section)
                out.raw(",")
                out.key("path")
                out.string(place.path)
                out.raw(",")
                out.key("file")
                out.string(place.file)
                out.raw(",")
                out.key("y")
                out.number(place.y)
                out.raw(",")
                out.key("height")
                out.number(place.height)
                out.raw(",")
                out.key("rows")
                out.number(place.rows)
                out.raw("}")
            }
            out.raw(",")
            out.key("heightChange")
            out.number(floor.heightChange)
            out.raw(",")
            out.key("shiftBelow")
            out.number(floor.shiftBelow)
            if let shift = floor.shiftBelowOldPlace {
                out.raw(",")
                out.key("shiftBelowOldPlace")
                out.number(shift)
            }
            out.raw(",")
            out.key("rows")
            out.raw("[")
            for (k, row) in floor.rows.enumerated() {
                if k > 0 { out.raw(",") }
                out.raw("{")
                out.key("change")
                out.string(row.change.rawValue)
                out.raw(",")
                out.key("type")
                out.string(row.type)
                out.raw(",")
                out.key("item")
                out.optional(row.item)
                for (name, place) in [("old", row.old), ("new", row.new)] {
                    out.raw(",")
                    out.string(name)
                    out.raw(":")
                    guard let place else {
                        out.raw("null")
                        continue
                    }
                    out.raw("{")
                    out.key("row")
                    out.number(place.row)
                    out.raw(",")
                    out.key("index")
                    out.number(place.index)
                    out.raw(",")
                    out.key("y")
                    out.number(place.y)
                    out.raw(",")
                    out.key("height")
                    out.number(place.height)
                    if let column = place.column {
                        out.raw(",")
                        out.key("column")
                        out.number(column)
                    }
                    out.raw("}")
                }
                out.raw(",")
                out.key("heightChange")
                out.number(row.heightChange)
                out.raw(",")
                out.key("shiftBelow")
                out.number(row.shiftBelow)
                out.raw("}")
            }
            out.raw("]}")
        }
        out.raw("],")
        out.key("diagnostics")
        out.diagnostics(diagnostics)
        out.raw(",")
        out.key("stats")
        out.raw("{")
        out.key("heightCalls")
        out.number(stats.heightCalls)
        out.raw(",")
        out.key("heightsKept")
        out.number(stats.heightsKept)
        out.raw("}}\n")
        return out.bytes
    }

    private static func content(_ content: ContentDiff, _ out: inout JSONWriter) {
        out.raw("[")
        for (i, line) in content.lines.enumerated() {
            if i > 0 { out.raw(",") }
            out.raw("{")
            out.key("change")
            out.string(line.change.rawValue)
            for (name, value) in [
                ("floor", line.floor), ("floorType", line.floorType), ("item", line.item), ("field", line.field),
                ("oldPath", line.oldPath), ("newPath", line.newPath),
            ] {
                guard let value else { continue }
                out.raw(",")
                out.string(name)
                out.raw(":")
                out.string(value)
            }
            // A field's values are JSON text already (PageContent wrote them).
            for (name, value) in [("old", line.old), ("new", line.new)] {
                guard let value else { continue }
                out.raw(",")
                out.string(name)
                out.raw(":")
                out.value(value)
            }
            out.raw("}")
        }
        out.raw("]")
    }
}
