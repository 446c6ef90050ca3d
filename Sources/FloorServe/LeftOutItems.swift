import FloorCore
import FloorLayout
import FloorRender

/// Items a plugin left out of a floor (`@DroppingBrokenItems`, or a C plugin's validator: a warning at
/// `floors[N].items[M]...` ending in "item left out"), marked in the preview where each would have been:
/// a dashed outline at the edge of the slot the next kept item took (along the top of its row when it
/// fills the row), with the reason. The terminal and json keep the warning alone.
///
/// Where an item is comes from the host's own item model (the one taps use until plugins report item
/// frames): a floor's rows list its kept items in order, as many per row as the row has tappable items,
/// each an equal share of the row's width. Cost: one pass over the warnings and over the rows of each
/// floor that lost an item (tappable counts are plugin calls), once per layout version.
package enum LeftOutItems {
    package struct Mark: Sendable, Equatable {
        package let row: Int
        /// Points from the row's left edge.
        package let x: Double
        /// The slot is the whole row (one item a row): the mark is a line along the row's top edge.
        package let across: Bool
        package let reason: String
    }

    package static func marks(_ adapter: Adapter, warnings: [Diagnostic]) -> [Int: [Mark]] {
        // (section, original item index, reason), from the warnings.
        var dropped: [Int: [(item: Int, reason: String)]] = [:]
        for warning in warnings
        where warning.message.hasSuffix("item left out") || warning.message.contains("; item left out (") {
            guard let path = warning.path, let (floor, item) = floorAndItem(path),
                let section = adapter.sections.firstIndex(where: {
                    $0.path == "floors[\(floor)]" && (warning.file == nil || $0.file == warning.file)
                })
            else { continue }
            let message = warning.message
            let reason = message.range(of: "): ").map { path + ": " + message[$0.upperBound...] } ?? message
            dropped[section, default: []].append((item, reason))
        }
        var marks: [Int: [Mark]] = [:]
        for (section, items) in dropped {
            let rows = adapter.rows(ofSection: section)
            var slots: [(row: Int, x: Double, width: Double)] = []
            for r in rows {
                let count = adapter.tappableItems(row: r)
                guard count > 0 else { continue }
                let width = adapter.width / Double(count)
                for k in 0..<count { slots.append((r, Double(k) * width, width)) }
            }
            guard let last = slots.last ?? rows.first.map({ ($0, 0, 0) }) else { continue }
            let sorted = items.sorted { $0.item < $1.item }
            for (k, item) in sorted.enumerated() {
                // Items before it that were dropped too are not on the page: the next kept item is at
                // the original index less those.
                let kept = item.item - k
                let mark =
                    kept < slots.count
                    ? Mark(
                        row: slots[kept].row, x: slots[kept].x, across: slots[kept].width >= adapter.width,
                        reason: item.reason)
                    : Mark(row: last.row, x: last.x + last.width, across: false, reason: item.reason)
                marks[mark.row, default: []].append(mark)
            }
        }
        return marks
    }

    /// `floors[N].items[M]...` → (N, M).
    static func floorAndItem(_ path: String) -> (Int, Int)? {
        let parts = path.split(separator: ".")
        guard parts.count >= 2, parts[0].hasPrefix("floors["), parts[1].hasPrefix("items["),
            let floor = Int(parts[0].dropFirst(7).dropLast()), let item = Int(parts[1].dropFirst(6).dropLast())
        else { return nil }
        return (floor, item)
    }

    /// The marks' elements, to go inside the row's element (after its cell's drawing).
    package static func html(_ marks: [Mark], rowWidth: Double) -> String {
        marks.map { mark in
            let x = min(max(0, mark.x), max(0, rowWidth - 6))
            // The label is short (the item's path in its floor and the problem); the whole warning is the
            // tooltip and in the Diagnostics panel.
            var short = mark.reason.drop { $0 != "." }.dropFirst()
            if let cut = short.range(of: "; item left out") { short = short[..<cut.lowerBound] }
            return
                "<div class=\"leftout\(mark.across ? " across" : "")\" title=\"\(HTMLText.escaped(mark.reason))\" style=\"left:\(HTMLText.px(x))\"><span>✕ left out: \(HTMLText.escaped(String(short)))</span></div>"
        }.joined()
    }
}
