import FloorKit

/// `Title`: a title bar with an optional subtitle. One row. Its content is declared in TitleModel.swift.
extension TitleFloor: FloorModel {
    static let floorType = "Title"
    static let rowTypes = [titleBar]
    static let sampleJSON =
        #"{"type":"Title","id":"t1","title":"猜你喜欢 For you","subtitle":"Picked from what you viewed"}"#

    func expand(into rows: inout FloorRows<TitleFloor>) {
        rows.append(Self.titleBar)
    }

    /// Points above the title and below the last line; the text is `inset` from each side.
    static let padding = 10.0, inset = 16.0, gap = 2.0

    static let titleBar = RowType<TitleFloor>(
        "TitleBar",
        // Real type (ABI 1.5 text styles): the bar grows with its title's and subtitle's lines.
        height: { floor, _, width in
            let title = TextMetrics.layout(floor.title, font: .headline, width: width - 2 * inset, maxLines: 2)
            let subtitle = floor.subtitle.map {
                TextMetrics.layout($0, font: .footnote, width: width - 2 * inset, maxLines: 2)
            }
            return padding + title.height + (subtitle.map { gap + $0.height } ?? 0) + padding
        },
        cell: { floor, _, canvas in
            let width = canvas.width - 2 * inset
            let title = canvas.layout(floor.title, font: .headline, width: width, maxLines: 2)
            canvas.textBlock(
                floor.title, x: inset, y: padding, width: width, maxLines: 2, font: .headline, style: .center)
            if let subtitle = floor.subtitle {
                canvas.textBlock(
                    subtitle, x: inset, y: padding + title.height + gap, width: width, maxLines: 2, font: .footnote,
                    style: [.muted, .center])
            }
        })
}

let plugin = FloorPlugin(id: "com.floorkit.floor.title", name: "Title bar", version: "1.0.0", floors: [TitleFloor.self])

@_cdecl("floor_plugin_entry")
public func floorPluginEntry() -> UnsafeRawPointer { plugin.descriptor }
