import FloorLayout
import HostContract

/// `floorhost diff`'s text: what a CMS edit changes on screen, one line per floor that changed (and, under
/// an updated floor, one per row), in the new page's order, each with where it is, its height and how far
/// the content below it moves; then the page's height and what was measured. Everything a page supplied
/// (ids, paths) is escaped.
public enum DiffText {
    public static func render(_ diff: PageDiff, old: String, new: String, width: Double) -> String {
        var lines: [String] = []
        let header = "\(old) → \(new) (\(points(width)) points wide)"
        guard !diff.isEmpty else {
            lines.append("\(header): no change on screen (\(diff.rowsKept) rows, \(points(diff.newHeight)) points)")
            return lines.map { ControlCharacters.escaped($0) }.joined(separator: "\n") + "\n"
        }
        let count = diff.floors.count
        lines.append(
            "\(header): \(count) floor\(count == 1 ? "" : "s") changed; the page is \(points(diff.oldHeight)) → \(points(diff.newHeight)) points (\(signed(diff.newHeight - diff.oldHeight)))"
        )
        for floor in diff.floors {
            lines.append("  " + line(floor))
            for row in floor.rows { lines.append("      " + line(row)) }
        }
        lines.append("rows: \(diff.rowsKept) kept their heights, \(diff.rowsMeasured) measured again")
        return lines.map { ControlCharacters.escaped($0) }.joined(separator: "\n") + "\n"
    }

    /// Each line says what the change itself does to the content below it (its height now minus before;
    /// a move both leaves a gap and opens one), so that every shift has its cause on its own line. The
    /// json output also has where the content ends up, every change counted (`shiftBelow`).
    private static func line(_ floor: PageDiff.FloorChange) -> String {
        let name = "\(label(floor.change)) floor '\(floor.floor)' (\(floor.type))"
        switch (floor.change, floor.old, floor.new) {
        case (.inserted, _, let new?):
            return
                "\(name) at \(new.path), y \(points(new.y)): \(rows(new.rows)), \(points(new.height)) points; \(shift(new.height))"
        case (.deleted, let old?, _):
            return
                "\(name), was \(old.path) at y \(points(old.y)): \(rows(old.rows)), \(points(old.height)) points; \(shift(-old.height))"
        case (.moved, let old?, let new?):
            return
                "\(name): \(old.path) → \(new.path), now at y \(points(new.y)) (was \(points(old.y))), \(points(new.height)) points; \(move(old.height, new.height))"
        case (.movedAndUpdated, let old?, let new?):
            return
                "\(name): \(old.path) → \(new.path), now at y \(points(new.y)) (was \(points(old.y))), \(changedRows(floor.rows)), \(heights(old.height, new.height)); \(move(old.height, new.height))"
        case (_, let old?, let new?):
            return
                "\(name) at \(new.path), y \(points(new.y)): \(changedRows(floor.rows)), \(heights(old.height, new.height)); \(shift(new.height - old.height))"
        default:
            return name
        }
    }

    private static func line(_ row: PageDiff.RowChange) -> String {
        let place = row.new ?? row.old!
        let item = row.item.map { " (item '\($0)')" } ?? ""
        let name = "\(label(row.change)) row \(place.row) \(row.type)\(item)"
        switch (row.change, row.old, row.new) {
        case (.inserted, _, let new?):
            return "\(name) at y \(points(new.y)), \(points(new.height)) points; \(shift(new.height))"
        case (.deleted, let old?, _):
            return "\(name), was at y \(points(old.y)), \(points(old.height)) points; \(shift(-old.height))"
        case (.moved, let old?, let new?):
            return
                "\(name): was row \(old.row), now at y \(points(new.y)) (was \(points(old.y))); \(move(old.height, new.height))"
        case (.movedAndUpdated, let old?, let new?):
            return
                "\(name): was row \(old.row), now at y \(points(new.y)) (was \(points(old.y))), \(heights(old.height, new.height)); \(move(old.height, new.height))"
        case (_, let old?, let new?):
            if let column = new.column {
                // An item of a grid or a waterfall: the items after it are placed again (into the shortest
                // column, or the next line), so what moves is not one run below it.
                let below =
                    new.height == old.height ? "nothing below moves" : "the items after it are placed again"
                return "\(name) at y \(points(new.y)) in column \(column): \(heights(old.height, new.height)); \(below)"
            }
            return
                "\(name) at y \(points(new.y)): \(heights(old.height, new.height)); \(shift(new.height - old.height))"
        default: return name
        }
    }

    /// A move: what followed its old place moves up, what is below its new place moves down.
    private static func move(_ old: Double, _ new: Double) -> String {
        guard old > 0 || new > 0 else { return "nothing else moves" }
        return "what followed it moves up \(points(old)), what is below its new place down \(points(new))"
    }

    private static func label(_ change: PageDiff.Change) -> String {
        change.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)
    }

    private static func rows(_ n: Int) -> String { "\(n) row\(n == 1 ? "" : "s")" }

    private static func changedRows(_ rows: [PageDiff.RowChange]) -> String {
        "\(rows.count) row\(rows.count == 1 ? "" : "s") changed"
    }

    private static func heights(_ old: Double, _ new: Double) -> String {
        old == new
            ? "\(points(new)) points, as before" : "\(points(old)) → \(points(new)) points (\(signed(new - old)))"
    }

    private static func shift(_ delta: Double) -> String {
        delta == 0 ? "nothing below moves" : "what is below moves \(delta > 0 ? "down" : "up") \(points(abs(delta)))"
    }

    private static func signed(_ delta: Double) -> String { delta >= 0 ? "+\(points(delta))" : "-\(points(-delta))" }

    /// 108 rather than 108.0 when whole.
    package static func points(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
