import CFloorABI
import HostContract

/// Rows the host itself draws, registered like any plugin's so that dispatch has one path: a floor the
/// host could not hand to a plugin (unknown type, refused JSON) becomes a visible placeholder row.
package enum BuiltinRows {
    package static let pluginID = "floorhost"
    package static let placeholder = "FloorPlaceholder"
    package static let placeholderHeight = 36.0

    /// A placeholder row's model: what went wrong, in one line. Owned by the page; released with it.
    package final class Placeholder {
        package let text: String
        package init(_ text: String) { self.text = text }
    }

    package static let footer = "LoadStateFooter"

    /// Draws a placeholder saying `text`: a floor the host could not hand to a plugin, or a plugin's row
    /// whose height calculator gave no height.
    package static func drawPlaceholder(_ text: String, into canvas: UnsafePointer<floor_canvas_t>) {
        let c = canvas.pointee
        c.box(canvas, 0, 0, c.width, c.height)
        ("! " + text).withCString { c.text(canvas, 8, 12, c.width - 16, $0, FLOOR_TEXT_BOLD) }
    }

    package static func register(in registry: Registry) {
        let plugin = registry.add(
            PluginInfo(
                id: pluginID, name: "floorhost built-in rows", version: "1.0.0",
                path: "(built in)", abiMajor: UInt32(FLOOR_ABI_MAJOR),
                abiMinor: UInt32(FLOOR_ABI_MINOR)))
        let height: HeightFunction = { _, _, _, _ in BuiltinRows.placeholderHeight }
        let cell: CellFunction = { _, model, _, canvas in
            guard let model, let canvas else { return }
            let text = Unmanaged<Placeholder>.fromOpaque(model).takeUnretainedValue().text
            BuiltinRows.drawPlaceholder(text, into: canvas)
        }
        _ = registry.add(
            Registry.RowType(
                name: placeholder, plugin: plugin, context: nil,
                height: Selector(
                    name: "heightFor\(placeholder):width:", signature: Signature(FLOOR_SIG_HEIGHT)!,
                    function: unsafeBitCast(height, to: floor_fn_t.self)),
                cell: Selector(
                    name: "cellFor\(placeholder):canvas:", signature: Signature(FLOOR_SIG_CELL)!,
                    function: unsafeBitCast(cell, to: floor_fn_t.self)),
                heightFunction: height, cellFunction: cell, tappable: nil, action: nil))
        registerFooter(in: registry, plugin: plugin)
    }

    /// The footer's height in points: one line of text with room around it, as a phone's footer cell.
    package static let footerHeight = 44.0
    /// What a tap on a failed footer describes as its action; the session performs it.
    package static let retryURL = "floorhost://retry"

    /// The load-state footer's row: its model is an unretained FooterRowModel (the layout's LoadStateFooter)
    /// the adapter keeps alive. One tappable item while a load has failed, whose action is the host's retry.
    private static func registerFooter(in registry: Registry, plugin: Int) {
        func footer(_ model: UnsafeMutableRawPointer?) -> FooterRowModel? {
            model.map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() as? FooterRowModel } ?? nil
        }
        let height: HeightFunction = { _, _, _, _ in BuiltinRows.footerHeight }
        let cell: CellFunction = { _, model, _, canvas in
            guard let footer = footer(model), let canvas else { return }
            let c = canvas.pointee
            let text = footer.text
            let style = (footer.failedPage == nil ? FLOOR_TEXT_MUTED : FLOOR_TEXT_ACCENT) | FLOOR_TEXT_CENTER
            text.withCString { c.text(canvas, 8, 16, c.width - 16, $0, style) }
        }
        let tappable: TappableFunction = { _, model, _ in
            guard let footer = footer(model), footer.failedPage != nil else { return 0 }
            return 1
        }
        let action: ActionFunction = { _, model, _, item, sink in
            guard let footer = footer(model), let page = footer.failedPage, item == 0, let sink else { return false }
            BuiltinRows.retryURL.withCString { sink.pointee.jump(sink, $0, nil) }
            "page".withCString { key in page.withCString { sink.pointee.param(sink, key, $0) } }
            return true
        }
        _ = registry.add(
            Registry.RowType(
                name: Self.footer, plugin: plugin, context: nil,
                height: Selector(
                    name: "heightFor\(Self.footer):width:", signature: Signature(FLOOR_SIG_HEIGHT)!,
                    function: unsafeBitCast(height, to: floor_fn_t.self)),
                cell: Selector(
                    name: "cellFor\(Self.footer):canvas:", signature: Signature(FLOOR_SIG_CELL)!,
                    function: unsafeBitCast(cell, to: floor_fn_t.self)),
                heightFunction: height, cellFunction: cell,
                tappable: Selector(
                    name: "tappableItemsFor\(Self.footer):", signature: Signature(FLOOR_SIG_TAPPABLE)!,
                    function: unsafeBitCast(tappable, to: floor_fn_t.self)),
                action: Selector(
                    name: "actionFor\(Self.footer):item:", signature: Signature(FLOOR_SIG_ACTION)!,
                    function: unsafeBitCast(action, to: floor_fn_t.self))))
    }
}
