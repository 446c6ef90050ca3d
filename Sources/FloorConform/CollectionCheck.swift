import CFloorABI
import FloorLayout
import FloorRuntime
import HostContract

/// The `collections` check (docs/ABI.md, "Collections"): for each floor type that declares a grid or a
/// waterfall, each sample is laid out as every layout it declares, at 1 to FLOOR_COLUMNS_MAX columns and the
/// phone and tablet widths, as the host would lay it out (ColumnPlacer): every item row's height, asked at
/// the column width, is a height the host keeps (0 to FLOOR_MAX_ROW_HEIGHT); every item draws inside its
/// frame (its column's width and its own height); and placing the same items again gives the same frames.
/// A floor type that declares a collection but whose samples list no FLOOR_ROW_ITEM row fails: the page's
/// `layout` would change nothing.
package enum CollectionCheck {
    package static func run(_ plugin: PluginUnderTest, _ samples: SampleSet) throws(ConformanceFailure) {
        for sample in samples.samples {
            let type = plugin.floorType(sample.floorType)
            let declared = type.layouts
            let kinds: [CollectionLayout.Kind] =
                (declared.supported & FLOOR_LAYOUT_GRID != 0 ? [.grid] : [])
                + (declared.supported & FLOOR_LAYOUT_WATERFALL != 0 ? [.waterfall] : [])
            guard !kinds.isEmpty else { continue }
            try plugin.withModel(sample) { model, rows throws(ConformanceFailure) in
                let flags = plugin.lastFlags
                let items = rows.indices.filter { $0 < flags.count && flags[$0] & FLOOR_ROW_ITEM != 0 }
                guard !items.isEmpty else {
                    throw ConformanceFailure(
                        "floor type '\(type.name)' declares \(kinds.map(\.rawValue).joined(separator: " and ")) but \(type.expand.name) listed no row with FLOOR_ROW_ITEM for \(sample.label), so a page's \"layout\" would place nothing"
                    )
                }
                for kind in kinds {
                    for columns in 1...Int(FLOOR_COLUMNS_MAX) {
                        let layout = CollectionLayout(
                            kind: kind, columns: columns, columnGap: declared.columnGap, lineGap: declared.lineGap,
                            inset: declared.inset)
                        for width in BehaviourChecks.drawWidths {
                            let itemWidth = layout.columnWidth(in: width)
                            plugin.step("\(kind.rawValue) of \(columns) at \(number(width)) points of \(sample.label)")
                            func place() throws(ConformanceFailure) -> [(column: Int, top: Double, height: Double)] {
                                var placer = ColumnPlacer(layout, top: 0)
                                var placed: [(column: Int, top: Double, height: Double)] = []
                                for row in items {
                                    let rowType = plugin.rowType(rows[row])
                                    let h = plugin.height(rows[row], model, row: row, width: itemWidth)
                                    if let consequence = UnusableHeight.consequence(of: h) {
                                        throw ConformanceFailure(
                                            "\(rowType.height.name) returned \(h) for item row \(row) ('\(rowType.name)') of \(sample.label) at its column width \(number(itemWidth)) (\(kind.rawValue) of \(columns) at \(number(width))); \(consequence)"
                                        )
                                    }
                                    let (column, top) = placer.place(height: h)
                                    placed.append((column, top, h))
                                }
                                return placed
                            }
                            let first = try place()
                            let again = try place()
                            guard first.elementsEqual(again, by: { $0 == $1 }) else {
                                throw ConformanceFailure(
                                    "the items of \(sample.label) were placed differently the second time (\(kind.rawValue) of \(columns) at \(number(width))): their heights at the column width changed between two calls"
                                )
                            }
                            for (k, row) in items.enumerated() where columns == 2 || columns == Int(FLOOR_COLUMNS_MAX) {
                                let rowType = plugin.rowType(rows[row])
                                let h = first[k].height
                                let operations = plugin.draw(rows[row], model, row: row, width: itemWidth, height: h)
                                if let outside = operations.first(where: { !$0.isInside(width: itemWidth, height: h) })
                                {
                                    throw ConformanceFailure(
                                        "\(rowType.cell.name) drew \(outside) outside its frame, \(number(itemWidth)) x \(number(h)) (item row \(row) ('\(rowType.name)') of \(sample.label), \(kind.rawValue) of \(columns) at \(number(width))); an item draws inside its column's width and its own height"
                                    )
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// 375 rather than 375.0: widths in messages read like the page's own numbers.
private func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
