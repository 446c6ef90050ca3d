import FloorCore
import FloorLayout
import HostContract

/// `floorhost diff`'s text, written from PageChanges as DiffJSON is, so that both say the same: first what
/// the editor changed (`content:`, one line a floor, item or field, with values before and after), then
/// what it does on screen (`screen:`, one line a floor that changed and, under an updated floor, one a row,
/// in the new page's order, each with where it is, its height and its own height change, and how far the
/// content below it moves with every change above it counted: json's `shiftBelow`); then what was measured.
/// Everything a page supplied (ids, paths, values) is escaped.
public enum DiffText {
    public static func render(_ changes: PageChanges, old: String, new: String, width: Double) -> String {
        let diff = changes.screen
        var lines: [String] = []
        let header = "\(old) → \(new) (\(points(width)) points wide)"
        guard !changes.isEmpty else {
            lines.append("\(header): no change (\(diff.rowsKept) rows, \(points(diff.newHeight)) points)")
            return lines.map { ControlCharacters.escaped($0) }.joined(separator: "\n") + "\n"
        }
        let edits = changes.content.lines.count
        let floors = diff.floors.count
        let screen =
            diff.isEmpty
            ? "nothing changes on screen"
            : "on screen \(floors) floor\(floors == 1 ? "" : "s") changed and the page is \(points(diff.oldHeight)) → \(points(diff.newHeight)) points (\(signed(diff.newHeight - diff.oldHeight)))"
        lines.append("\(header): \(edits) change\(edits == 1 ? "" : "s") in the content; \(screen)")
        if !changes.content.isEmpty {
            lines.append("content:")
            for line in changes.content.lines { lines.append("  " + Self.line(line)) }
        }
        if !diff.isEmpty {
            lines.append("screen:")
            for floor in diff.floors {
                lines.append("  " + line(floor))
                for row in floor.rows { lines.append("      " + line(row)) }
            }
        }
        lines.append("rows: \(diff.rowsKept) kept their heights, \(diff.rowsMeasured) measured again")
        return lines.map { ControlCharacters.escaped($0) }.joined(separator: "\n") + "\n"
    }

    /// `floor 'feed' (ProductFeed): item 'p1' price: "¥299.00" → "¥1.00"`, `floor 'x' (Title) moved from
    /// floors[2] to floors[10]`, `page: title: "A" → "B"`.
    private static func line(_ line: ContentDiff.Line) -> String {
        var subject = line.floor.map { "floor '\($0)' (\(line.floorType ?? ""))" } ?? "page"
        if let item = line.item { subject += ": item '\(item)'" }
        if let field = line.field {
            let prefix = (line.floor == nil || line.item == nil ? subject + ":" : subject) + " \(field)"
            switch (line.change, line.old, line.new) {
            case (.added, _, let new?): return "\(prefix) added: \(new)"
            case (.deleted, let old?, _): return "\(prefix) deleted (was \(old))"
            default: return "\(prefix): \(line.old ?? "") → \(line.new ?? "")"
            }
        }
        switch line.change {
        case .added: return "\(subject) added at \(last(line.newPath))"
        case .deleted: return "\(subject) deleted (was \(last(line.oldPath)))"
        case .moved: return "\(subject) moved from \(last(line.oldPath)) to \(last(line.newPath))"
        case .changed: return "\(subject) changed"
        }
    }

    /// `items[2]` of `floors[4].items[2]`: a line names its floor already.
    private static func last(_ path: String?) -> String {
        guard let path else { return "" }
        return path.split(separator: ".").last.map(String.init) ?? path
    }

    private static func line(_ floor: PageDiff.FloorChange) -> String {
        let name = "\(label(floor.change)) floor '\(floor.floor)' (\(floor.type))"
        let below = shift(floor.shiftBelow)
        switch (floor.change, floor.old, floor.new) {
        case (.inserted, _, let new?):
            return
                "\(name) at \(new.path), y \(points(new.y)): \(rows(new.rows)), \(points(new.height)) points (+\(points(new.height))); \(below)"
        case (.deleted, let old?, _):
            return
                "\(name), was \(old.path) at y \(points(old.y)): \(rows(old.rows)), \(points(old.height)) points (-\(points(old.height))); \(below)"
        case (.moved, let old?, let new?):
            return
                "\(name): \(old.path) → \(new.path), now at y \(points(new.y)) (was \(points(old.y))), \(points(new.height)) points; \(move(floor))"
        case (.movedAndUpdated, let old?, let new?):
            return
                "\(name): \(old.path) → \(new.path), now at y \(points(new.y)) (was \(points(old.y))), \(changedRows(floor.rows)), \(heights(old.height, new.height)); \(move(floor))"
        case (_, let old?, let new?):
            return
                "\(name) at \(new.path), y \(points(new.y)): \(changedRows(floor.rows)), \(heights(old.height, new.height)); \(below)"
        default:
            return name
        }
    }

    private static func line(_ row: PageDiff.RowChange) -> String {
        let place = row.new ?? row.old!
        let item = row.item.map { " (item '\($0)')" } ?? ""
        let name = "\(label(row.change)) row \(place.row) \(row.type)\(item)"
        let below = shift(row.shiftBelow)
        switch (row.change, row.old, row.new) {
        case (.inserted, _, let new?):
            return "\(name) at y \(points(new.y)), \(points(new.height)) points (+\(points(new.height))); \(below)"
        case (.deleted, let old?, _):
            return "\(name), was at y \(points(old.y)), \(points(old.height)) points (-\(points(old.height))); \(below)"
        case (.moved, let old?, let new?):
            return "\(name): was row \(old.row), now at y \(points(new.y)) (was \(points(old.y))); \(below)"
        case (.movedAndUpdated, let old?, let new?):
            return
                "\(name): was row \(old.row), now at y \(points(new.y)) (was \(points(old.y))), \(heights(old.height, new.height)); \(below)"
        case (_, let old?, let new?):
            let column = new.column.map { " in column \($0)" } ?? ""
            return "\(name) at y \(points(new.y))\(column): \(heights(old.height, new.height)); \(below)"
        default: return name
        }
    }

    /// A moved floor: what followed its old place (json's `shiftBelowOldPlace`), and what is below its new
    /// place (`shiftBelow`).
    private static func move(_ floor: PageDiff.FloorChange) -> String {
        let old = floor.shiftBelowOldPlace.map { "what followed its old place \(moves($0)), " } ?? ""
        return "\(old)what is below its new place \(moves(floor.shiftBelow))"
    }

    private static func label(_ change: PageDiff.Change) -> String {
        change.rawValue.padded(toWidth: 13)
    }

    private static func rows(_ n: Int) -> String { "\(n) row\(n == 1 ? "" : "s")" }

    private static func changedRows(_ rows: [PageDiff.RowChange]) -> String {
        "\(rows.count) row\(rows.count == 1 ? "" : "s") changed"
    }

    private static func heights(_ old: Double, _ new: Double) -> String {
        old == new
            ? "\(points(new)) points, as before" : "\(points(old)) → \(points(new)) points (\(signed(new - old)))"
    }

    /// json's `shiftBelow`, in words.
    package static func shift(_ delta: Double) -> String {
        delta == 0 ? "nothing below moves" : "what is below \(moves(delta))"
    }

    private static func moves(_ delta: Double) -> String {
        delta == 0 ? "stays" : "moves \(delta > 0 ? "down" : "up") \(points(abs(delta)))"
    }

    private static func signed(_ delta: Double) -> String { delta >= 0 ? "+\(points(delta))" : "-\(points(-delta))" }

    /// 108 rather than 108.0 when whole.
    package static func points(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
