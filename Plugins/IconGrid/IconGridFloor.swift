import FloorKit

/// `IconGrid`: channel icons in `columns` columns (default 4); one row per line of icons. Its content is
/// declared in IconGridModel.swift.
extension IconGridFloor: FloorModel {
    static let floorType = "IconGrid"
    static let rowTypes = [iconLine]
    static let sampleJSON =
        #"{"type":"IconGrid","id":"channels","columns":4,"items":[{"id":"i1","img":"https://img.example.com/icon/market.png","title":"超市","jump":{"url":"app://channel/market"}},{"id":"i2","img":"https://img.example.com/icon/fresh.png","title":"生鲜 Fresh","jump":{"url":"app://channel/fresh"}},{"id":"i3","img":"https://img.example.com/icon/phone.png","title":"手机","jump":{"url":"app://channel/phone"}},{"id":"i4","img":"https://img.example.com/icon/home.png","title":"家电","jump":{"url":"app://channel/home"}},{"id":"i5","img":"https://img.example.com/icon/coupon.png","title":"领券","jump":{"url":"app://coupon"}}]}"#

    /// The icons a line shows.
    func icons(onLine line: Int) -> ArraySlice<Icon> {
        let first = line * columns
        return items[first..<min(first + columns, items.count)]
    }

    func expand(into rows: inout FloorRows<IconGridFloor>) {
        for line in stride(from: 0, to: items.count, by: columns) { rows.append(Self.iconLine, item: line / columns) }
    }

    /// A line of icons: a 48-point image with its label under it (a caption, one line, cut with an
    /// ellipsis), in equal columns.
    static let iconLine = RowType<IconGridFloor>(
        "IconGridLine",
        height: { _, _, _ in 84 },
        cell: { floor, line, canvas in
            let slot = canvas.width / Double(floor.columns)
            for (column, icon) in floor.icons(onLine: line).enumerated() {
                let x = Double(column) * slot
                let side = min(48, slot - 8)
                canvas.image(icon.img, x: x + (slot - side) / 2, y: 12, width: side, height: 48, fit: .fit)
                canvas.textBlock(
                    icon.title, x: x + 2, y: 62, width: slot - 4, maxLines: 1, font: .caption, style: .center)
                // The icon's column, the line's full height: a short last line's icons keep their columns
                // (1.4's rule would share the width among the icons there are).
                canvas.itemFrame(column, x: x, y: 0, width: slot, height: canvas.height)
            }
        },
        taps: { floor, line in floor.icons(onLine: line).count },
        action: { floor, line, tap in
            let icons = floor.icons(onLine: line)
            guard tap < icons.count else { return nil }
            let icon = icons[icons.startIndex + tap]
            return icon.jump.map {
                Action($0, params: ["iconId": icon.id, "position": String(icons.startIndex + tap)])
            }
        })
}

let plugin = FloorPlugin(
    id: "com.floorkit.floor.icon-grid", name: "Icon grid", version: "1.0.0",
    floors: [IconGridFloor.self])

@_cdecl("floor_plugin_entry")
public func floorPluginEntry() -> UnsafeRawPointer { plugin.descriptor }
