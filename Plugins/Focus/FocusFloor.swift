import FloorKit

/// `Focus`: a banner carousel. One row showing the current banner, its title, and page dots.
struct FocusFloor: FloorModel {
    static let floorType = "Focus"
    static let rowTypes = [carousel]
    static let sampleJSON =
        #"{"type":"Focus","id":"focus","items":[{"id":"b1","img":"https://img.example.com/banner/1111.jpg","title":"双十一 Big sale","jump":{"url":"app://activity/1111","eventId":"focus_1"}},{"id":"b2","img":"https://img.example.com/banner/new.jpg","jump":{"url":"app://activity/new"}}]}"#

    struct Banner: Decodable {
        var id: String
        var img: String
        var title: String?
        var jump: Jump?
    }

    var items: [Banner]

    static let schemaNotes: [String: SchemaNote] = [
        "items": "The banners, in order; the carousel shows the first.",
        "items[].id": "The banner's id (in tap actions as bannerId).",
        "items[].img": "The banner image's URL; 5:2, as wide as the page.",
        "items[].title": "Text over the banner's lower edge.",
        "items[].jump": "Where a tap on the banner goes.",
    ]
    /// Which banner is showing; a preview shows the first.
    var current: Int { 0 }

    func validate() -> [FloorProblem] {
        if items.isEmpty { return [FloorProblem("items", "a carousel needs at least one banner")] }
        return items.indices.filter { items[$0].img.isEmpty }.map { FloorProblem("items[\($0)].img", "is empty") }
    }

    func expand(into rows: inout FloorRows<FocusFloor>) {
        if !items.isEmpty { rows.append(Self.carousel) }
    }

    /// Banners are 5:2, as wide as the page.
    static let carousel = RowType<FocusFloor>(
        "FocusCarousel",
        height: { _, _, width in (width * 0.4).rounded() },
        cell: { floor, _, canvas in
            let banner = floor.items[floor.current]
            canvas.image(banner.img, x: 0, y: 0, width: canvas.width, height: canvas.height - 24)
            if let title = banner.title {
                // A headline over the banner's lower edge, one line (cut with an ellipsis).
                canvas.textBlock(
                    title, x: 12, y: canvas.height - 24 - TextFont.headline.lineHeight - 6, width: canvas.width - 24,
                    maxLines: 1, font: .headline)
            }
            let dots = floor.items.indices.map { $0 == floor.current ? "●" : "○" }.joined(separator: " ")
            canvas.text(dots, x: 0, y: canvas.height - 12, style: .center)
        },
        action: { floor, _, _ in
            let banner = floor.items[floor.current]
            return banner.jump.map { Action($0, params: ["bannerId": banner.id, "position": String(floor.current)]) }
        })
}

let plugin = FloorPlugin(
    id: "com.floorkit.floor.focus", name: "Focus banner carousel", version: "1.0.0",
    floors: [FocusFloor.self])

@_cdecl("floor_plugin_entry")
public func floorPluginEntry() -> UnsafeRawPointer { plugin.descriptor }
