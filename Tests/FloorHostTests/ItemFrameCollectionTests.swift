import FloorLayout
import FloorRuntime
import FloorSession
import Foundation
import HostContract
import Testing

/// Item frames (carousel) on top of real text and collections (main): ProductFeed's one tappable item is its
/// card, so its frame follows the text-based card height, in the cell the card is drawn in.
struct ItemFrameCollectionTests {
    let folder: TemporaryFolder
    let plugins: String

    init() throws {
        folder = try TemporaryFolder("itemframe-collections")
        plugins = try folder.installShippedPlugins(["ProductFeed"])
    }

    func layout(_ fields: String) throws -> Adapter {
        let items = ["Short one", "A title long enough to need a second line"].enumerated().map { i, title in
            #"{"id":"p\#(i)","title":"\#(title)","price":"¥\#(i + 1).00","img":"p\#(i).jpg","jump":{"url":"app://p/\#(i)"}}"#
        }
        let page = try folder.write(
            "feed.json",
            #"{"floors":[{"type":"ProductFeed","id":"feed"\#(fields),"items":[\#(items.joined(separator: ","))]}]}"#)
        return try FloorHost(pluginFolder: plugins).layout(page: page, width: 375)
    }

    /// A wide card's frame is the card above its rule, which is drawn 12 points above the card's bottom:
    /// 108 - 12 = 96 with a one-line title, 128 - 12 = 116 with two (the card grows by a 20-point body line).
    @Test func aWideCardsFrameIsTheCardAboveItsRule() throws {
        let adapter = try layout("")
        let cards = (0..<adapter.rowCount).filter { adapter.describe(row: $0).type == "ProductCard" }
        #expect(cards.map { adapter.describe(row: $0).height } == [108, 128])
        #expect(
            cards.map { adapter.reportedFrames(row: $0) } == [
                [ItemFrame(item: 0, x: 0, y: 0, width: 375, height: 108 - 12)],
                [ItemFrame(item: 0, x: 0, y: 0, width: 375, height: 128 - 12)],
            ])
    }

    /// In a two-column waterfall a card is stacked in its column, (375 - 16 - 8) / 2 = 175.5 wide, and its
    /// frame is the whole framed card (156 high with one title line, 176 with two); a tap at a point of the
    /// card (points from the cell's left, as the preview sends them) hits it.
    @Test func aStackedCardsFrameIsItsWholeCellInItsColumn() throws {
        let adapter = try layout(#","layout":"waterfall","columns":2"#)
        let cards = (0..<adapter.rowCount).filter { adapter.describe(row: $0).type == "ProductCard" }
        #expect(
            cards.map { adapter.reportedFrames(row: $0) } == [
                [ItemFrame(item: 0, x: 0, y: 0, width: 175.5, height: 156)],
                [ItemFrame(item: 0, x: 0, y: 0, width: 175.5, height: 176)],
            ])
        #expect(adapter.item(atX: 170, y: 150, row: cards[0]) == 0)
        #expect(adapter.item(atX: 180, y: 150, row: cards[0]) == nil, "past the column's width is not the card")
    }
}
