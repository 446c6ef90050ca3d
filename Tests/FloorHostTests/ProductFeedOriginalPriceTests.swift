import CFloorABI
import FloorLayout
import FloorRender
import FloorSession
import Foundation
import HostContract
import Testing

/// ProductFeed on ABI 1.4 and 1.5: an item's optional `originalPrice` is drawn struck through after its price
/// with a sale badge (an accent fill behind the discount) under the price, and a title too long for its line
/// takes two, the card growing from 108 to 128 points (real type: the height calculator measures through the
/// host table what the cell draws on its canvas).
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
        #expect(old["strike"] as? Bool == true && old["font"] as? String == "footnote")
        // After the price (a headline, as wide as the host measures it), 8 points on: ABI 1.5 real type.
        #expect(number(old["x"]) == 116 + Self.width("¥59.00", FLOOR_TEXT_HEADLINE) + 8)
        let price = try #require(draws.first { $0["text"] as? String == "¥59.00" })
        #expect(price["strike"] == nil && price["font"] as? String == "headline")
    }

    /// The width of one line of `text` in `style`, as the host measures it (HostTextLayout, ABI 1.5).
    static func width(_ text: String, _ style: UInt32) -> Double {
        HostTextLayout.block(text, style: style, maxWidth: .infinity, maxLines: 0).width
    }

    /// The badge: an accent fill from the text column's left edge, 20 points high, 4 below the price's
    /// 22-point headline line, 6 points wider than its caption label each side, then the label centred on
    /// it, 2 points down: "-34%" for ¥59.00 from ¥89.00. Text output shades its columns ▓ around the label.
    /// Prices sent as text are amounts too ("¥1,299.00"); an original price not above the price gets no badge; a
    /// product without one, none either; a two-line title moves the badge down a body line (20 points).
    @Test func anOriginalPricePutsASaleBadgeWithTheDiscountUnderThePrice() throws {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins(["ProductFeed"]))
        let page = try folder.write(
            "p.json",
            #"""
            {"floors":[{"type":"ProductFeed","id":"f","items":[
              {"id":"p1","title":"Mug","price":"¥59.00","originalPrice":89,"img":"https://x/m.jpg"},
              {"id":"p2","title":"Kettle","price":"¥649.50","originalPrice":"¥1,299.00","img":"https://x/k.jpg"},
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
        func expected(_ label: String, y: Double) -> [RecordingCanvas.Operation] {
            let width = Self.width(label, FLOOR_TEXT_CAPTION) + 12
            return [
                .fill(x: 116, y: y, width: width, height: 20, tone: UInt32(FLOOR_TONE_ACCENT)),
                .textBlock(
                    label, x: 116, y: y + 2, maxWidth: width, maxLines: 1,
                    style: FLOOR_TEXT_CAPTION | FLOOR_TEXT_ACCENT | FLOOR_TEXT_CENTER),
            ]
        }
        #expect(badge(0) == expected("-34%", y: 60))
        #expect(badge(1) == expected("-50%", y: 60))
        #expect(badge(2).isEmpty)
        #expect(badge(3).isEmpty)
        #expect(badge(4) == expected("-50%", y: 80))
        let text = TextRenderer.render(adapter, columns: 75)
        #expect(text.contains("▓-34%▓") && text.contains("▓-50%▓"), "\(text)")
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

    /// A title is body text of at most two lines: a second line makes the card 20 points taller (the
    /// height calculator measures through the host table what the cell draws on its canvas).
    @Test func aLongTitleTakesTwoLinesAndTheCardGrows() throws {
        let (adapter, _) = try layout()
        let cards = (0..<adapter.rowCount).filter { adapter.describe(row: $0).type == "ProductCard" }
        #expect(cards.map { adapter.describe(row: $0).height } == [108, 128])
        let width = adapter.width
        let draws = RecordingCanvas.record(width: width, height: 128) { adapter.drawCell(row: cards[1], into: $0) }
        let titles = draws.compactMap {
            if case .textBlock(let s, _, let y, let m, let lines, let style) = $0, style == FLOOR_TEXT_BODY {
                return (s, y, m, lines)
            } else {
                return nil
            }
        }
        try #require(titles.count == 1)
        #expect(titles[0].1 == 8 && titles[0].3 == 2 && titles[0].2 == width - 124)
        // The host breaks it at a word and cuts the rest with an ellipsis.
        let block = HostTextLayout.block(titles[0].0, style: FLOOR_TEXT_BODY, maxWidth: titles[0].2, maxLines: 2)
        #expect(block.lines.count == 2 && block.truncated)
        #expect(titles[0].0.hasPrefix(block.lines[0].text + " "))
        #expect(block.lines[1].text.hasSuffix("\u{2026}"))
        #expect(block.lines.allSatisfy { $0.width <= titles[0].2 })
        #expect(draws.allSatisfy { $0.isInside(width: width, height: 128) })
    }
}
