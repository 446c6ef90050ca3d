import HostContract
import CFloorABI
import Foundation
import Testing
@testable import FloorHost

/// ProductFeed on ABI 1.4: an item's optional `originalPrice` is drawn struck through after its price, and
/// a title too long for its line takes two, the card growing from 108 to 120 points (the height calculator
/// measures through the host table what the cell measures on its canvas).
struct ProductFeedOriginalPriceTests {
    static let page = #"""
        {"floors":[{"type":"ProductFeed","id":"f","items":[
          {"id":"p1","title":"Mug","price":"¥59.00","originalPrice":89,"img":"https://x/m.jpg"},
          {"id":"p2","title":"Stainless steel water bottle 750ml with a bamboo lid and a carrying loop","price":"¥9.90","img":"https://x/b.jpg"}]}]}
        """#

    func layout() throws -> (Adapter, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins(["ProductFeed"]))
        let adapter = try host.layout(page: try folder.write("p.json", Self.page), width: TextRenderer.layoutWidth(columns: 75))
        return (adapter, folder)
    }

    @Test func theOriginalPriceIsStruckInTextOutput() throws {
        let (adapter, _) = try layout()
        let text = TextRenderer.render(adapter, columns: 75)
        #expect(text.contains("¥59.00"))
        #expect(text.contains("¥\u{336}8\u{336}9\u{336}.\u{336}0\u{336}0\u{336}"), "\(text)")
        #expect(!text.contains("¥\u{336}5\u{336}9"))  // the price itself is not struck
    }

    @Test func theOriginalPriceIsStruckInJSONOutput() throws {
        let (adapter, _) = try layout()
        let card = try #require((0..<adapter.rowCount).first { adapter.describe(row: $0).type == "ProductCard" })
        let canvas = JSONCanvas()
        adapter.drawCell(row: card, into: canvas)
        let draws = try #require(try JSONSerialization.jsonObject(with: Data(("[" + String(decoding: canvas.out.bytes, as: UTF8.self) + "]").utf8)) as? [[String: Any]])
        let old = try #require(draws.first { $0["text"] as? String == "¥89.00" })
        #expect(old["strike"] as? Bool == true)
        // After the price, with room between them: "¥59.00" is 30 points from x 116.
        #expect(number(old["x"]) == Double(116 + 30 + 10))
        let price = try #require(draws.first { $0["text"] as? String == "¥59.00" })
        #expect(price["strike"] == nil)
    }

    @Test func aLongTitleTakesTwoLinesAndTheCardGrows() throws {
        let (adapter, _) = try layout()
        let cards = (0..<adapter.rowCount).filter { adapter.describe(row: $0).type == "ProductCard" }
        #expect(cards.map { adapter.describe(row: $0).height } == [108, 120])
        let width = adapter.width
        let draws = RecordingCanvas.record(width: width, height: 120) { adapter.drawCell(row: cards[1], into: $0) }
        let bold = draws.compactMap { if case let .text(s, _, y, m, style) = $0, style & FLOOR_TEXT_BOLD != 0 { return (s, y, m) } else { return nil } }
        #expect(bold.count == 2)
        #expect(bold.map(\.1) == [12, 24])
        // The first line fits its column and ends at a word; the second starts with the next word.
        #expect(TextMeasure.points(bold[0].0) <= bold[0].2)
        #expect(bold[0].0 == "Stainless steel water bottle 750ml with a bamboo")
        #expect(bold[1].0 == "lid and a carrying loop")
        #expect(draws.allSatisfy { $0.isInside(width: width, height: 120) })
    }
}
