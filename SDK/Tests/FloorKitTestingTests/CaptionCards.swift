import FloorKit

/// `CaptionCards`: a card per item whose title is real type (ABI 1.5): a body-style block of at most two
/// lines, its height measured in the height calculator (TextMetrics.layout) and drawn with the same
/// arguments (Canvas.textBlock), 12 points of padding above and below.
struct CaptionCards: ItemsFloor {
    static let floorType = "CaptionCards"
    static let rowTypes = [card]
    static let sampleJSON = #"{"type":"CaptionCards","id":"cards","items":[{"id":"a","title":"Wireless earbuds"}]}"#

    struct Card: Decodable, FloorItem {
        var id: String
        var title: String
    }

    @DroppingBrokenItems var items: [Card]

    func expand(into rows: inout FloorRows<CaptionCards>) { _ = expand(items: items.indices, into: &rows) }

    func expand(items range: Range<Int>, into rows: inout FloorRows<CaptionCards>) -> Bool {
        for item in range { rows.append(Self.card, item: item) }
        return true
    }

    static let card = RowType<CaptionCards>(
        "CaptionCard",
        height: { floor, item, width in
            24 + TextMetrics.layout(floor.items[item].title, font: .body, width: width - 24, maxLines: 2).height
        },
        cell: { floor, item, canvas in
            canvas.textBlock(
                floor.items[item].title, x: 12, y: 12, width: canvas.width - 24, maxLines: 2, font: .body)
        })
}

let cardsPlugin = FloorPlugin(
    id: "com.floorkit.test.cards", name: "Cards (SDK tests)", version: "0.1.0", floors: [CaptionCards.self])

/// The cards plugin's entry, as the kit loads it.
func cardsPluginEntry() -> UnsafeRawPointer { cardsPlugin.descriptor }
