import FloorKit

/// `Title`: a title bar with an optional subtitle. One row.
struct TitleFloor: FloorModel {
    static let floorType = "Title"
    static let rowTypes = [titleBar]
    static let sampleJSON =
        #"{"type":"Title","id":"t1","title":"猜你喜欢 For you","subtitle":"Picked from what you viewed"}"#

    var title: String
    var subtitle: String?

    static let schemaNotes: [String: SchemaNote] = [
        "title": "The bar's text, bold and centred.",
        "subtitle": "A second, muted line under the title.",
    ]

    func expand(into rows: inout FloorRows<TitleFloor>) {
        rows.append(Self.titleBar)
    }

    static let titleBar = RowType<TitleFloor>(
        "TitleBar",
        height: { floor, _, _ in floor.subtitle == nil ? 36 : 48 },
        cell: { floor, _, canvas in
            canvas.text(floor.title, x: 0, y: 12, style: [.bold, .center])
            if let subtitle = floor.subtitle {
                canvas.text(subtitle, x: 0, y: 24, style: [.muted, .center])
            }
        })
}

let plugin = FloorPlugin(id: "com.floorkit.floor.title", name: "Title bar", version: "1.0.0", floors: [TitleFloor.self])

@_cdecl("floor_plugin_entry")
public func floorPluginEntry() -> UnsafeRawPointer { plugin.descriptor }
