import CFloorABI

/// The machine-readable output (DESIGN, "Output contract"): one object with `rows`, `diagnostics` and
/// `events`, plus the page, the width and the plugins used. Field order is fixed so output diffs cleanly.
public enum JSONRenderer {
    public static func render(_ adapter: Adapter, plugins: [PluginInfo], diagnostics: [Diagnostic]) -> [UInt8] {
        var out = JSONWriter(capacity: 256 + adapter.rowCount * 96)
        out.raw("{")
        out.key("page"); out.string(adapter.page.file)
        out.raw(","); out.key("width"); out.number(adapter.width)
        out.raw(","); out.key("height"); out.number(adapter.totalHeight)
        out.raw(","); out.key("next"); out.optional(adapter.page.next)
        out.raw(","); out.key("plugins"); out.raw("[")
        for (i, plugin) in plugins.enumerated() {
            if i > 0 { out.raw(",") }
            out.raw("{"); out.key("id"); out.string(plugin.id)
            out.raw(","); out.key("name"); out.string(plugin.name)
            out.raw(","); out.key("version"); out.string(plugin.version)
            out.raw(","); out.key("path"); out.string(plugin.path)
            out.raw("}")
        }
        out.raw("],"); out.key("rows"); out.raw("[")
        let rows = adapter.rows
        let floorIDs = adapter.page.sections.map(\.floorID)
        let typeNames = adapter.registry.rowTypes.map(\.name)
        for r in 0..<rows.count {
            if r > 0 { out.raw(",") }
            out.raw("{"); out.key("section"); out.number(Int(rows.section[r]))
            out.raw(","); out.key("row"); out.number(Int(rows.index[r]))
            out.raw(","); out.key("floor"); out.string(floorIDs[Int(rows.section[r])])
            out.raw(","); out.key("type"); out.string(typeNames[Int(rows.type[r])])
            out.raw(","); out.key("y"); out.number(rows.top[r])
            out.raw(","); out.key("height"); out.number(rows.height[r])
            if rows.flags[r] & FLOOR_ROW_HEADER != 0 {
                out.raw(","); out.key("header"); out.bool(true)
                out.raw(","); out.key("sticky"); out.bool(rows.flags[r] & FLOOR_ROW_STICKY != 0)
            }
            out.raw("}")
        }
        out.raw("],"); out.key("diagnostics"); out.raw("[")
        for (i, d) in diagnostics.enumerated() {
            if i > 0 { out.raw(",") }
            out.raw("{"); out.key("level"); out.string(d.level.rawValue)
            out.raw(","); out.key("message"); out.string(d.message)
            if let file = d.file { out.raw(","); out.key("file"); out.string(file) }
            if let plugin = d.plugin { out.raw(","); out.key("plugin"); out.string(plugin) }
            if let path = d.path { out.raw(","); out.key("path"); out.string(path) }
            out.raw("}")
        }
        out.raw("],"); out.key("events"); out.raw("[]}\n")
        return out.bytes
    }
}
