import CFloorABI

/// Rows the host itself draws, registered like any plugin's so that dispatch has one path: a floor the
/// host could not hand to a plugin (unknown type, refused JSON) becomes a visible placeholder row.
enum BuiltinRows {
    static let pluginID = "floorhost"
    static let placeholder = "FloorPlaceholder"
    static let placeholderHeight = 36.0

    /// A placeholder row's model: what went wrong, in one line. Owned by the page; released with it.
    final class Placeholder {
        let text: String
        init(_ text: String) { self.text = text }
    }

    static func register(in registry: Registry) {
        let plugin = registry.add(PluginInfo(id: pluginID, name: "floorhost built-in rows", version: "1.0.0",
                                             path: "(built in)", abiMajor: UInt32(FLOOR_ABI_MAJOR),
                                             abiMinor: UInt32(FLOOR_ABI_MINOR)))
        let height: HeightFunction = { _, _, _, _ in BuiltinRows.placeholderHeight }
        let cell: CellFunction = { _, model, _, canvas in
            guard let model, let canvas else { return }
            let text = Unmanaged<Placeholder>.fromOpaque(model).takeUnretainedValue().text
            let c = canvas.pointee
            c.box(canvas, 0, 0, c.width, c.height)
            ("! " + text).withCString { c.text(canvas, 8, 12, c.width - 16, $0, FLOOR_TEXT_BOLD) }
        }
        _ = registry.add(Registry.RowType(
            name: placeholder, plugin: plugin, context: nil,
            height: Selector(name: "heightFor\(placeholder):width:", signature: Signature(FLOOR_SIG_HEIGHT)!,
                             function: unsafeBitCast(height, to: floor_fn_t.self)),
            cell: Selector(name: "cellFor\(placeholder):canvas:", signature: Signature(FLOOR_SIG_CELL)!,
                           function: unsafeBitCast(cell, to: floor_fn_t.self)),
            heightFunction: height, cellFunction: cell, tappable: nil, action: nil))
    }
}
