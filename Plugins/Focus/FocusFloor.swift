import FloorKit

/// `Focus`: a banner carousel. One row paging through the banners, each with its title, and page dots. Its
/// content is declared in FocusModel.swift.
extension FocusFloor: FloorModel {
    static let floorType = "Focus"
    static let rowTypes = [carousel]
    static let sampleJSON =
        #"{"type":"Focus","id":"focus","items":[{"id":"b1","img":"https://img.example.com/banner/1111.jpg","title":"双十一 Big sale","jump":{"url":"app://activity/1111","eventId":"focus_1"}},{"id":"b2","img":"https://img.example.com/banner/new.jpg","jump":{"url":"app://activity/new"}}]}"#

    func expand(into rows: inout FloorRows<FocusFloor>) {
        if !items.isEmpty { rows.append(Self.carousel) }
    }

    /// One page a banner (docs/ABI.md, "Paged rows"), at most FLOOR_PAGES_MAX of them.
    var pages: Int { min(items.count, 64) }

    /// Below the banner: its page's dot filled among the others, and "i/n".
    static let dotsHeight = 24.0

    /// Banners are 5:2, as wide as the page; the row pages through them, banner i on page i, which is also
    /// tappable item i (`--tap S:R:I` taps banner I).
    static let carousel = RowType<FocusFloor>(
        "FocusCarousel",
        height: { _, _, width in (width * 0.4).rounded() },
        cell: { floor, _, canvas in
            let current = min(canvas.page, floor.pages - 1)
            let banner = floor.items[current]
            let bannerHeight = canvas.height - dotsHeight
            canvas.image(banner.img, x: 0, y: 0, width: canvas.width, height: bannerHeight)
            canvas.itemFrame(current, x: 0, y: 0, width: canvas.width, height: bannerHeight)
            if let title = banner.title {
                // A headline over the banner's lower edge, one line (cut with an ellipsis).
                canvas.textBlock(
                    title, x: 12, y: bannerHeight - TextFont.headline.lineHeight - 6, width: canvas.width - 24,
                    maxLines: 1, font: .headline)
            }
            // One banner does not page: no dots, no "1/1".
            guard floor.pages > 1 else { return }
            let dots = (0..<floor.pages).map { $0 == current ? "●" : "○" }.joined(separator: " ")
            canvas.text(dots, x: 0, y: canvas.height - 12, style: .center)
            let position = "\(current + 1)/\(floor.pages)"
            let positionWidth = canvas.measure(position, style: .muted)
            canvas.text(
                position, x: max(0, canvas.width - 12 - positionWidth), y: canvas.height - 12,
                maxWidth: positionWidth, style: .muted)
        },
        taps: { floor, _ in floor.pages },
        action: { floor, _, tap in
            guard tap < floor.pages else { return nil }
            let banner = floor.items[tap]
            return banner.jump.map { Action($0, params: ["bannerId": banner.id, "position": String(tap)]) }
        },
        pages: { floor, _ in floor.pages })
}

let plugin = FloorPlugin(
    id: "com.floorkit.floor.focus", name: "Focus banner carousel", version: "1.0.0",
    floors: [FocusFloor.self])

@_cdecl("floor_plugin_entry")
public func floorPluginEntry() -> UnsafeRawPointer { plugin.descriptor }
