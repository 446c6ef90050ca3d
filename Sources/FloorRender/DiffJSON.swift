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
        out.object { o in
            o.member("old", old)
            o.member("new", new)
            o.member("width", width)
            o.member("same", changes.isEmpty)
            o.key("content")
            content(changes.content, &o.writer)
            o.object("height") { h in
                h.member("old", diff.oldHeight)
                h.member("new", diff.newHeight)
            }
            o.object("rows") { r in
                r.member("kept", diff.rowsKept)
                r.member("measured", diff.rowsMeasured)
            }
            o.array("floors", diff.floors, floorChange)
            o.key("diagnostics")
            o.writer.diagnostics(diagnostics)
            o.object("stats") { s in
                s.member("heightCalls", stats.heightCalls)
                s.member("heightsKept", stats.heightsKept)
            }
        }
        out.raw("\n")
        return out.bytes
    }

    /// `{change, floor, type, old, new, heightChange, shiftBelow, shiftBelowOldPlace?, rows}`.
    private static func floorChange(_ floor: PageDiff.FloorChange, _ out: inout JSONWriter) {
        out.object { o in
            o.member("change", floor.change.rawValue)
            o.member("floor", floor.floor)
            o.member("type", floor.type)
            o.object("old", floor.old, floorPlace)
            o.object("new", floor.new, floorPlace)
            o.member("heightChange", floor.heightChange)
            o.member("shiftBelow", floor.shiftBelow)
            if let shift = floor.shiftBelowOldPlace { o.member("shiftBelowOldPlace", shift) }
            o.array("rows", floor.rows, rowChange)
        }
    }

    /// `{section, path, file, y, height, rows}`.
    private static func floorPlace(_ place: PageDiff.FloorPlace, _ p: inout JSONWriter.Members) {
        p.member("section", place.section)
        p.member("path", place.path)
        p.member("file", place.file)
        p.member("y", place.y)
        p.member("height", place.height)
        p.member("rows", place.rows)
    }

    /// `{row, index, y, height, column?}`.
    private static func rowPlace(_ place: PageDiff.RowPlace, _ p: inout JSONWriter.Members) {
        p.member("row", place.row)
        p.member("index", place.index)
        p.member("y", place.y)
        p.member("height", place.height)
        if let column = place.column { p.member("column", column) }
    }

    /// `{change, type, item, old, new, heightChange, shiftBelow}`.
    private static func rowChange(_ row: PageDiff.RowChange, _ out: inout JSONWriter) {
        out.object { o in
            o.member("change", row.change.rawValue)
            o.member("type", row.type)
            o.member("item", row.item)
            o.object("old", row.old, rowPlace)
            o.object("new", row.new, rowPlace)
            o.member("heightChange", row.heightChange)
            o.member("shiftBelow", row.shiftBelow)
        }
    }

    /// `[{change, floor?, floorType?, item?, field?, oldPath?, newPath?, old?, new?}]`: a member for each fact the line has.
    private static func content(_ content: ContentDiff, _ out: inout JSONWriter) {
        out.raw("[")
        for (i, line) in content.lines.enumerated() {
            if i > 0 { out.raw(",") }
            out.object { o in
                o.member("change", line.change.rawValue)
                let facts: [(StaticString, String?)] = [
                    ("floor", line.floor), ("floorType", line.floorType), ("item", line.item), ("field", line.field),
                    ("oldPath", line.oldPath), ("newPath", line.newPath),
                ]
                for case (let name, let value?) in facts { o.member(name, value) }
                // A field's values are JSON text already (PageContent wrote them).
                let values: [(StaticString, String?)] = [("old", line.old), ("new", line.new)]
                for case (let name, let value?) in values {
                    o.key(name)
                    o.writer.value(value)
                }
            }
        }
        out.raw("]")
    }
}
