import CFloorABI
import FloorLayout
import FloorRender
import FloorSession
import HostContract
import Testing

// The text preview's rule for texts that share a baseline (TextPlacement): a price and its original price
// struck through after it, as ProductFeed draws them (the original 4 points lower in a smaller style, so that
// the baselines meet, and 8 points after the price's width), go on one terminal line, the struck one a
// space after the price's last cell, wherever a line boundary falls and however wide the price.

/// `text` struck as the plain text output shows it: U+0336 after each character.
private func struck(_ text: String) -> String {
    text.unicodeScalars.map { "\($0)\u{336}" }.joined()
}

private let headline = FLOOR_TEXT_HEADLINE | FLOOR_TEXT_ACCENT
private let footnote = FLOOR_TEXT_FOOTNOTE | FLOOR_TEXT_MUTED | FLOOR_TEXT_STRIKE

/// A 75-column grid backend at 5 points a column, its cell starting on line 0.
private func backend(lines: Int = 6) -> TextRenderer.GridBackend {
    let backend = TextRenderer.GridBackend(TextGrid(columns: 75, lines: lines), pointsPerColumn: 5)
    backend.startCell(firstLine: 0)
    return backend
}

/// Draws `price` (headline) at (`x`, `y`) and `original` struck (footnote) 4 points lower, `gap` points after
/// the price's width, as ProductFeed's cell does; returns the grid's lines.
private func drawPrices(
    _ price: String, _ original: String, x: Double = 116, y: Double, gap: Double = 8, lines: Int = 6
) -> [String] {
    let backend = backend(lines: lines)
    let leader = TextBlockDrawing(text: price, x: x, y: y, maxWidth: 375 - 8 - x, maxLines: 1, style: headline)
    backend.textBlock(leader)
    let after = x + leader.block.width + gap
    backend.textBlock(
        TextBlockDrawing(text: original, x: after, y: y + 4, maxWidth: 375 - 8 - after, maxLines: 1, style: footnote))
    return backend.grid.render()
}

struct SharedBaselineTests {
    static let prices = [
        ("¥9.90", "¥19.80"), ("¥199.00", "¥299.00"), ("¥12,999.00", "¥15,999.00"), ("券后价 ¥88", "¥128.00"),
    ]

    /// At every half point of a line and a half (so that a line boundary falls between the two tops, and
    /// not), for prices 5 to 10 characters wide and CJK text before a number: the struck price is on the
    /// price's line, which is the line of the price's top, exactly one column after the price's last cell,
    /// and on no other line; a 6-point gap (ProductFeed's stacked card) too.
    @Test(arguments: prices)
    func theStruckPriceFollowsThePriceOnItsLine(price: String, original: String) {
        for gap in [8.0, 6] {
            for y in stride(from: 0.0, through: 18, by: 0.5) {
                let lines = drawPrices(price, original, y: y, gap: gap)
                let line = Int((y / 12).rounded(.down))
                #expect(lines[line].hasSuffix(price + " " + struck(original)), "y \(y), gap \(gap): \(lines)")
                #expect(lines[line].hasPrefix(String(repeating: " ", count: 23) + price), "y \(y): \(lines)")
                #expect(lines.filter { $0.contains("\u{336}") }.count == 1, "y \(y), gap \(gap): \(lines)")
            }
        }
    }

    /// Through the C canvas a plugin draws on (the bytes path), from a cell that starts further down the
    /// grid and right of its left edge (an item of a collection floor): the same line and column.
    @Test func theRuleHoldsThroughThePluginsCanvasInACellAwayFromTheCorner() {
        let backend = backend(lines: 10)
        backend.startCell(firstLine: 3, column: 10)
        func draw(_ text: String, x: Double, y: Double, style: UInt32) {
            var text = text
            text.withUTF8 {
                backend.textBlock(
                    utf8: UnsafeRawBufferPointer($0), x: x, y: y, maxWidth: 200, maxLines: 1, style: style)
            }
        }
        let width = TextBlockDrawing(text: "¥199.00", x: 0, y: 0, maxWidth: 200, maxLines: 1, style: headline)
            .block.width
        draw("¥199.00", x: 6, y: 34, style: headline)
        draw("¥299.00", x: 6 + width + 6, y: 38, style: footnote)
        let lines = backend.grid.render()
        #expect(lines[5] == String(repeating: " ", count: 11) + "¥199.00 " + struck("¥299.00"), "\(lines)")
    }

    /// Texts that touch in points (a run in two styles) touch in columns; a text on the same baseline that
    /// starts well after the other's end keeps its own column, on the other's line; so does one after cell
    /// text (5 points a cell: its x is already the columns it means).
    @Test func touchingTextsTouchAndDistantOnesKeepTheirColumn() {
        let touching = backend()
        let total = TextBlockDrawing(text: "Total", x: 12, y: 10, maxWidth: 300, maxLines: 1, style: FLOOR_TEXT_BODY)
        touching.textBlock(total)
        touching.textBlock(
            TextBlockDrawing(
                text: "¥5", x: 12 + total.block.width, y: 10, maxWidth: 200, maxLines: 1,
                style: FLOOR_TEXT_BODY | FLOOR_TEXT_BOLD))
        #expect(touching.grid.render()[0] == "  Total¥5")

        let distant = backend()
        let price = TextBlockDrawing(text: "¥199.00", x: 116, y: 34, maxWidth: 200, maxLines: 1, style: headline)
        distant.textBlock(price)
        distant.textBlock(TextBlockDrawing(text: "¥299.00", x: 300, y: 38, maxWidth: 60, maxLines: 1, style: footnote))
        let cell = backend()
        cell.text("Total", x: 10, y: 12, maxWidth: 100, style: 0)
        // On the cell text's baseline: its top is on the line above.
        let y = 12 + TextPlacement.baseline(style: 0) - TextPlacement.baseline(style: FLOOR_TEXT_BODY)
        cell.textBlock(TextBlockDrawing(text: "¥5", x: 45, y: y, maxWidth: 100, maxLines: 1, style: FLOOR_TEXT_BODY))
        #expect(cell.grid.render() == ["", "  Total  ¥5", "", "", "", ""])
        let lines = distant.grid.render()
        #expect(
            lines[2] == String(repeating: " ", count: 23) + "¥199.00" + String(repeating: " ", count: 30)
                + struck("¥299.00"), "\(lines)")
    }

    /// Lines stacked top-down keep the lines of their tops (ProductFeed's title, price and badge label); a
    /// centred text on a shared baseline is not moved along its line; cells do not align with each other.
    @Test func stackedLinesCentredTextsAndOtherCellsKeepTheirPlaces() {
        let card = backend(lines: 8)
        card.textBlock(TextBlockDrawing(text: "Mug", x: 116, y: 8, maxWidth: 251, maxLines: 2, style: FLOOR_TEXT_BODY))
        card.textBlock(TextBlockDrawing(text: "¥59.00", x: 116, y: 34, maxWidth: 251, maxLines: 1, style: headline))
        card.textBlock(
            TextBlockDrawing(
                text: "-34%", x: 116, y: 62, maxWidth: 40, maxLines: 1,
                style: FLOOR_TEXT_CAPTION | FLOOR_TEXT_ACCENT | FLOOR_TEXT_CENTER))
        let lines = card.grid.render()
        #expect(lines[0].hasSuffix("Mug") && lines[2].hasSuffix("¥59.00") && lines[5].hasSuffix("-34%"), "\(lines)")

        let centred = backend()
        centred.textBlock(TextBlockDrawing(text: "¥199.00", x: 0, y: 34, maxWidth: 100, maxLines: 1, style: headline))
        centred.textBlock(
            TextBlockDrawing(
                text: "sale", x: 0, y: 38, maxWidth: 375, maxLines: 1,
                style: FLOOR_TEXT_FOOTNOTE | FLOOR_TEXT_CENTER))
        #expect(centred.grid.render()[2] == "¥199.00" + String(repeating: " ", count: 28) + "sale")

        let cells = backend()
        cells.textBlock(TextBlockDrawing(text: "¥199.00", x: 116, y: 34, maxWidth: 200, maxLines: 1, style: headline))
        cells.startCell(firstLine: 0)
        cells.textBlock(TextBlockDrawing(text: "¥299.00", x: 190, y: 38, maxWidth: 60, maxLines: 1, style: footnote))
        #expect(cells.grid.render()[3] == String(repeating: " ", count: 38) + struck("¥299.00"))
    }

    /// ProductFeed's cards through the real plugin: a list (the picture beside the text), and at 40 columns
    /// (a 200-point card stacks its picture above its text) and in a two-column grid, with one- and two-line
    /// titles: every original price is struck a space after its price, on its line.
    @Test(arguments: [("list", 75), ("list", 40), ("grid", 75)])
    func productFeedCardsShowTheStruckPriceAfterThePrice(layout: String, columns: Int) throws {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins(["ProductFeed"]))
        let title = "Stainless steel water bottle 750ml with a bamboo lid and a carrying loop"
        let items = Self.prices.dropLast().enumerated().flatMap { i, prices in
            [("Mug", i), (title, i + 10)].map { name, id in
                #"{"id":"p\#(id)","title":"\#(name)","price":"\#(prices.0)","originalPrice":"\#(prices.1)","img":"https://x/\#(id).jpg"}"#
            }
        }
        let page = try folder.write(
            "p.json",
            #"{"floors":[{"type":"ProductFeed","id":"f","layout":"\#(layout)","items":[\#(items.joined(separator: ","))]}]}"#
        )
        let adapter = try host.layout(page: page, width: TextRenderer.layoutWidth(columns: columns))
        let text = TextRenderer.render(adapter, columns: columns)
        func count(_ s: String) -> Int { text.components(separatedBy: s).count - 1 }
        // ProductFeed draws "¥12999.00" for "¥12,999.00".
        let drawn = Self.prices.dropLast().map { ($0.replacing(",", with: ""), $1.replacing(",", with: "")) }
        for (price, original) in drawn {
            #expect(count(struck(original)) == 2, "\(original): \(text)")
            #expect(count(price + " " + struck(original)) == 2, "\(text)")
        }
    }
}
