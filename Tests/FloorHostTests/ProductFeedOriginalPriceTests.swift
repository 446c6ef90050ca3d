import CFloorABI
import FloorLayout
import FloorRender
import FloorSession
import Foundation
import HostContract
import Testing

/// ProductFeed on ABI 1.4: an item's optional `originalPrice` is drawn struck through after its price with a
/// sale badge (an accent fill behind the discount) under the price, and a title too long for its line takes
/// two, the card growing from 108 to 120 points (the height calculator measures through the host table what
/// the cell measures on its canvas).
struct ProductFeedOriginalPriceTests {
    static let page = #"""
        {"floors":[{"type":"ProductFeed","id":"f","items":[
          {"id":"p1","title":"Mug","price":"¥59.00","originalPrice":89,"img":"https://x/m.jpg"},
          {"id":"p2","title":"Stainless steel water bottle 750ml with a bamboo lid and a carrying loop","price":"¥9.90","img":"https://x/b.jpg"}]}]}
        """#

    func layout() throws -> (Adapter, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins(["ProductFeed"]))
        let adapter = try host.layout(
            page: try folder.write("p.json", Self.page), width: TextRenderer.layoutWidth(columns: 75))
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
        let draws = try #require(
            try JSONSerialization.jsonObject(
                with: Data(("[" + String(decoding: canvas.out.bytes, as: UTF8.self) + "]").utf8)) as? [[String: Any]])
        let old = try #require(draws.first { $0["text"] as? String == "¥89.00" })
        #expect(old["strike"] as? Bool == true)
        // After the price, with room between them: "¥59.00" is 30 points from x 116.
        #expect(number(old["x"]) == Double(116 + 30 + 10))
        let price = try #require(draws.first { $0["text"] as? String == "¥59.00" })
        #expect(price["strike"] == nil)
    }

    /// The badge: an accent fill from the text column's left edge, 16 points high, 8 below the price line, a
    /// column (5 points) wider than the label each side, then the label centred on it, 2 points down: "-34%"
    /// for ¥59.00 from ¥89.00. Text output
    /// shades its columns ▓ around the label. A price that is not an amount gets "SALE"; an original price
    /// not above the price gets no badge; a product without one, none either; a two-line title moves the
    /// badge a line down with the price.
    @Test func anOriginalPricePutsASaleBadgeWithTheDiscountUnderThePrice() throws {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins(["ProductFeed"]))
        let page = try folder.write(
            "p.json",
            #"""
            {"floors":[{"type":"ProductFeed","id":"f","items":[
              {"id":"p1","title":"Mug","price":"¥59.00","originalPrice":89,"img":"https://x/m.jpg"},
              {"id":"p2","title":"Kettle","price":"¥99起","originalPrice":"¥1,299.00","img":"https://x/k.jpg"},
              {"id":"p3","title":"Pan","price":50,"originalPrice":40,"img":"https://x/p.jpg"},
              {"id":"p4","title":"Cup","price":5,"img":"https://x/c.jpg"},
              {"id":"p5","title":"Stainless steel water bottle 750ml with a bamboo lid and a carrying loop","price":"¥9.90","originalPrice":"¥19.80","img":"https://x/b.jpg"}]}]}
            """#)
        let adapter = try host.layout(page: page, width: 375)
        let cards = (0..<adapter.rowCount).filter { adapter.describe(row: $0).type == "ProductCard" }
        try #require(cards.count == 5)
        func badge(_ card: Int) -> [RecordingCanvas.Operation] {
            let height = adapter.describe(row: cards[card]).height
            let draws = RecordingCanvas.record(width: 375, height: height) {
                adapter.drawCell(row: cards[card], into: $0)
            }
            #expect(draws.allSatisfy { $0.isInside(width: 375, height: height) })
            guard let fill = draws.firstIndex(where: { if case .fill = $0 { true } else { false } }) else { return [] }
            return Array(draws[fill...].prefix(2))
        }
        let accent = UInt32(FLOOR_TONE_ACCENT)
        #expect(
            badge(0) == [
                .fill(x: 116, y: 78, width: 30, height: 16, tone: accent),
                .text("-34%", x: 116, y: 80, maxWidth: 30, style: FLOOR_TEXT_ACCENT | FLOOR_TEXT_CENTER),
            ])
        #expect(
            badge(1) == [
                .fill(x: 116, y: 78, width: 30, height: 16, tone: accent),
                .text("SALE", x: 116, y: 80, maxWidth: 30, style: FLOOR_TEXT_ACCENT | FLOOR_TEXT_CENTER),
            ])
        #expect(badge(2).isEmpty)
        #expect(badge(3).isEmpty)
        #expect(
            badge(4) == [
                .fill(x: 116, y: 90, width: 30, height: 16, tone: accent),
                .text("-50%", x: 116, y: 92, maxWidth: 30, style: FLOOR_TEXT_ACCENT | FLOOR_TEXT_CENTER),
            ])
        let text = TextRenderer.render(adapter, columns: 75)
        #expect(text.contains("▓-34%▓") && text.contains("▓SALE▓") && text.contains("▓-50%▓"), "\(text)")
    }

    /// Where the text column beside the picture is narrower than the badge, the badge is left out rather than
    /// drawn past the cell; a card narrower than ProductFeed's 220 points stacks its picture above its text
    /// (as in a waterfall's column), where the badge goes under the price, inside the card's own height.
    @Test func aNarrowCardLeavesTheBadgeOut() throws {
        let (adapter, _) = try layout()
        let card = try #require((0..<adapter.rowCount).first { adapter.describe(row: $0).type == "ProductCard" })
        for (width, badge) in [(30.0, false), (150, true), (219, true), (220, true), (375, true)] {
            adapter.setWidth(width)
            let height = adapter.describe(row: card).height
            let draws = RecordingCanvas.record(width: width, height: height) { adapter.drawCell(row: card, into: $0) }
            #expect(draws.allSatisfy { $0.isInside(width: width, height: height) }, "\(width)")
            #expect(draws.contains { if case .fill = $0 { true } else { false } } == badge, "\(width)")
        }
    }

    @Test func aLongTitleTakesTwoLinesAndTheCardGrows() throws {
        let (adapter, _) = try layout()
        let cards = (0..<adapter.rowCount).filter { adapter.describe(row: $0).type == "ProductCard" }
        #expect(cards.map { adapter.describe(row: $0).height } == [108, 120])
        let width = adapter.width
        let draws = RecordingCanvas.record(width: width, height: 120) { adapter.drawCell(row: cards[1], into: $0) }
        let bold = draws.compactMap {
            if case .text(let s, _, let y, let m, let style) = $0, style & FLOOR_TEXT_BOLD != 0 {
                return (s, y, m)
            } else {
                return nil
            }
        }
        #expect(bold.count == 2)
        #expect(bold.map(\.1) == [12, 24])
        // The first line fits its column and ends at a word; the second starts with the next word.
        #expect(TextMeasure.points(bold[0].0) <= bold[0].2)
        #expect(bold[0].0 == "Stainless steel water bottle 750ml with a bamboo")
        #expect(bold[1].0 == "lid and a carrying loop")
        #expect(draws.allSatisfy { $0.isInside(width: width, height: 120) })
    }
}
