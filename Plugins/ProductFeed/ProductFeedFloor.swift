import FloorKit

/// `ProductFeed`: product cards, one row each, under an optional sticky strip of sort options. The infinite
/// feed that next pages extend. The cards are the floor's items (ABI 1.5): a page may lay them out as a
/// list (the default), a grid or a waterfall (`"layout": "waterfall", "columns": 2`), where a card narrower
/// than `stackedBelow` stacks its picture above its text and is as tall as its title needs. Its content is
/// declared in ProductFeedModel.swift.
extension ProductFeedFloor: ItemsFloor {
    static let floorType = "ProductFeed"
    static let rowTypes = [sortStrip, card]
    static let layouts = CollectionLayouts(
        [.list, .grid, .waterfall], default: .list, columns: 2, columnGap: 8, lineGap: 8, inset: 8)
    static let sampleJSON =
        #"{"type":"ProductFeed","id":"feed","header":{"title":"猜你喜欢","sticky":true},"sorts":["综合 Best","销量 Sales","价格 Price"],"items":[{"id":"p1","title":"无线蓝牙耳机 Pro","price":"¥199.00","img":"https://img.example.com/p/1.jpg","jump":{"url":"app://product/1","eventId":"feed_click"}},{"id":"p2","title":"Stainless steel water bottle 750ml","price":59.9,"originalPrice":79,"img":"https://img.example.com/p/2.jpg","jump":{"url":"app://product/2"}}]}"#

    func expand(into rows: inout FloorRows<ProductFeedFloor>) {
        if let sorts, !sorts.isEmpty { rows.append(Self.sortStrip, sticky: true) }
        _ = expand(items: items.indices, into: &rows)
    }

    /// One card per item: a next page's items are listed alone, so a long feed extends in O(items added)
    /// (the sort strip leads the floor's rows, so the rows already laid out stay as they are).
    func expand(items range: Range<Int>, into rows: inout FloorRows<ProductFeedFloor>) -> Bool {
        for item in range { rows.appendItem(Self.card, item: item) }
        return true
    }

    /// Where the text beside the picture starts, and the points it leaves at the right.
    static let textX = 116.0, textMargin = 124.0

    /// The sort strip: the options from the left, each as wide as it measures and `sortGap` apart, the current
    /// (first) one in the price colour and bold, the others muted, over a rule; options past the right edge
    /// are cut, then left out. Sticky (FLOOR_ROW_STICKY): while the cards scroll under it, it stays at the top
    /// of the screen, so the sort in use stays in sight; it unpins when the feed has scrolled away.
    static let sortStrip = RowType<ProductFeedFloor>(
        "ProductSortStrip",
        height: { _, _, _ in 36 },
        cell: { floor, _, canvas in
            var x = 12.0
            for (index, sort) in (floor.sorts ?? []).enumerated() {
                let style: TextStyle = index == 0 ? [.accent, .bold] : .muted
                let room = canvas.width - 8 - x
                guard room > 0 else { break }
                let width = canvas.measure(sort, style: style)
                canvas.text(sort, x: x, y: 12, maxWidth: min(width, room), style: style)
                x += width + sortGap
            }
            canvas.box(x: 0, y: 30, width: canvas.width, height: 0)
        })

    /// The space between two sort options: four columns of the text preview.
    static let sortGap = 20.0

    /// The sale badge's label for a product with an original price: the discount in whole percent ("-34%",
    /// 1 to 99), nil when the original price is not above the price (nothing was taken off).
    static func discountLabel(price now: Double, original before: Double) -> String? {
        guard before > now else { return nil }
        return "-\(min(99, max(1, Int(((1 - now / before) * 100).rounded()))))%"
    }

    /// A price as drawn: yuan with two decimals, "¥199.00" (whether the page sent 199, "199" or "¥199"). A
    /// decoded price is 0...maximumYuan. Its bytes are written in place: a text preview draws two prices a
    /// card, and the interpolation cost 1,250 instructions each.
    static func priceText(_ yuan: Double) -> String {
        let cents = Int((yuan * 100).rounded()).magnitude
        var digits = 1
        var rest = cents / 100
        while rest >= 10 {
            digits += 1
            rest /= 10
        }
        // "¥" (2 bytes), the yuan's digits, "." and two digits: at most 18 bytes below a trillion yuan.
        return String(unsafeUninitializedCapacity: digits + 5) { out in
            out[0] = 0xC2
            out[1] = 0xA5
            var yuan = cents / 100
            for i in stride(from: digits + 1, through: 2, by: -1) {
                out[i] = UInt8(ascii: "0") + UInt8(yuan % 10)
                yuan /= 10
            }
            out[digits + 2] = UInt8(ascii: ".")
            out[digits + 3] = UInt8(ascii: "0") + UInt8(cents % 100 / 10)
            out[digits + 4] = UInt8(ascii: "0") + UInt8(cents % 10)
            return digits + 5
        }
    }

    /// The badge's padding left and right of its label.
    static let badgePadding = 6.0

    /// Where the card's texts go, top to bottom: the title (body, at most two lines), the price (headline),
    /// the sale badge (a caption on a fill 20 points high). The card is as tall as its title makes it: 108
    /// points with a one-line title, 128 with two (real type, ABI 1.5; cell lines on an older host).
    static let titleY = 8.0, priceGap = 6.0, badgeGap = 4.0, badgeHeight = 20.0
    static func priceY(titleHeight: Double) -> Double { titleY + titleHeight + priceGap }
    static func badgeY(titleHeight: Double) -> Double {
        priceY(titleHeight: titleHeight) + TextFont.headline.lineHeight + badgeGap
    }
    static func cardHeight(titleHeight: Double) -> Double { badgeY(titleHeight: titleHeight) + badgeHeight + 28 }
    /// The title's height a card of `cardHeight` was made for: the height calculator laid the title out once,
    /// and the cell reads its height back from the card's rather than laying the title out a second time.
    static func titleHeight(cardHeight: Double) -> Double { max(0, cardHeight - self.cardHeight(titleHeight: 0)) }

    /// The sale badge at `y` in the text column: the label centred in the price colour on an accent fill
    /// (drawn first, so the label sits on it), the label's measured width and a padding each side. Left out
    /// where the column cannot hold it, so the card never draws outside its cell.
    static func drawSaleBadge(_ label: String, y: Double, canvas: Canvas) {
        let width = canvas.layout(label, font: .caption, width: .infinity).width + 2 * badgePadding
        guard textX + width <= canvas.width - 8 else { return }
        canvas.fill(x: textX, y: y, width: width, height: badgeHeight, tone: .accent)
        canvas.textBlock(
            label, x: textX, y: y + 2, width: width, maxLines: 1, font: .caption, style: [.accent, .center])
    }

    /// A card: the picture on the left, title and price beside it. A title too long for its line takes
    /// two, and the card grows by a line. An original price follows the price, muted and struck through,
    /// and puts a sale badge under the price (on a host older than ABI 1.4 neither is drawn: it would show
    /// the original price unstruck, and the badge's fill as a frame).
    static let card = RowType<ProductFeedFloor>(
        "ProductCard",
        height: { floor, item, width in
            if width < stackedBelow { return StackedCard.height(floor.items[item], width: width) }
            return cardHeight(
                titleHeight: TextMetrics.layout(
                    floor.items[item].title, font: .body, width: width - textMargin, maxLines: 2
                ).height)
        },
        cell: { floor, item, canvas in
            let product = floor.items[item]
            if canvas.width < stackedBelow { return StackedCard.draw(product, canvas: canvas) }
            let available = canvas.width - textMargin
            let titleHeight = titleHeight(cardHeight: canvas.height)
            let priceY = priceY(titleHeight: titleHeight)
            canvas.image(product.img, x: 8, y: 0, width: 96, height: 96)
            canvas.textBlock(product.title, x: textX, y: titleY, width: available, maxLines: 2, font: .body)
            let price = priceText(product.price)
            canvas.textBlock(price, x: textX, y: priceY, width: available, maxLines: 1, font: .headline, style: .accent)
            if let original = product.originalPrice, canvas.supportsStrike {
                // The price block's own arguments: the width of the line drawn, and the block laid out once.
                let x = textX + canvas.layout(price, font: .headline, width: available, maxLines: 1).width + 8
                let room = canvas.width - 8 - x
                if room > 0 {
                    canvas.textBlock(
                        priceText(original), x: x, y: priceY + 4, width: room, maxLines: 1, font: .footnote,
                        style: [.muted, .strike])
                }
                if let label = discountLabel(price: product.price, original: original) {
                    drawSaleBadge(label, y: badgeY(titleHeight: titleHeight), canvas: canvas)
                }
            }
            let rule = canvas.height - 12
            canvas.box(x: 8, y: rule, width: canvas.width - 16, height: 0)
            // The whole card above its rule is the one tappable item (docs/ABI.md, "Item frames").
            canvas.itemFrame(0, x: 0, y: 0, width: canvas.width, height: rule)
        },
        action: { floor, item, _ in
            let product = floor.items[item]
            return product.jump.map { Action($0, params: ["productId": product.id, "position": String(item)]) }
        })
}

extension ProductFeedFloor {
    /// A card narrower than this (a column of a grid or a waterfall on a phone) stacks its picture above
    /// its text: beside a 96-point picture, fewer than 100 points would be left for the title.
    static let stackedBelow = 220.0

    /// A card in a column: the picture across the top, then the title (one line, or two when it does not fit
    /// on one), the price with the original price struck through after it, and the sale badge under them,
    /// in a frame. Its height follows its content, which is what makes a waterfall of them uneven.
    enum StackedCard {
        static let pictureHeight = 96.0
        static let padding = 6.0

        /// The title's layout at `width` (body, two lines at most): the one place a stacked card measures its
        /// title, in the height calculator; the cell reads the title's height back from its own (`height`).
        static func title(_ product: Product, width: Double) -> TextLayout {
            TextMetrics.layout(product.title, font: .body, width: width - 2 * padding, maxLines: 2)
        }

        static func hasBadge(_ product: Product) -> Bool {
            product.originalPrice.flatMap { discountLabel(price: product.price, original: $0) } != nil
        }

        /// Picture, a gap, the title's lines, the price line, the badge when there is one, a gap.
        static func height(_ product: Product, width: Double) -> Double {
            height(product, titleHeight: title(product, width: width).height)
        }

        static func height(_ product: Product, titleHeight: Double) -> Double {
            let badge = hasBadge(product) ? badgeGap + badgeHeight : 0
            return pictureHeight + padding + titleHeight + priceGap + TextFont.headline.lineHeight + badge + padding
        }

        static func draw(_ product: Product, canvas: Canvas) {
            let width = canvas.width
            let available = width - 2 * padding
            canvas.image(product.img, x: 0, y: 0, width: width, height: pictureHeight)
            var y = pictureHeight + padding
            // The title's height the card was made for (the height calculator laid it out): not laid out again.
            let titleHeight = max(0, canvas.height - height(product, titleHeight: 0))
            canvas.textBlock(product.title, x: padding, y: y, width: available, maxLines: 2, font: .body)
            y += titleHeight + priceGap
            let price = priceText(product.price)
            canvas.textBlock(price, x: padding, y: y, width: available, maxLines: 1, font: .headline, style: .accent)
            if let original = product.originalPrice, canvas.supportsStrike {
                let x = padding + canvas.layout(price, font: .headline, width: available, maxLines: 1).width + 6
                if width - padding - x > 0 {
                    canvas.textBlock(
                        priceText(original), x: x, y: y + 4, width: width - padding - x, maxLines: 1, font: .footnote,
                        style: [.muted, .strike])
                }
                if let label = discountLabel(price: product.price, original: original) {
                    let badge = canvas.layout(label, font: .caption, width: .infinity).width + 2 * badgePadding
                    let badgeY = y + TextFont.headline.lineHeight + badgeGap
                    if padding + badge <= width - padding {
                        canvas.fill(x: padding, y: badgeY, width: badge, height: badgeHeight, tone: .accent)
                        canvas.textBlock(
                            label, x: padding, y: badgeY + 2, width: badge, maxLines: 1, font: .caption,
                            style: [.accent, .center])
                    }
                }
            }
            canvas.box(x: 0, y: 0, width: width, height: canvas.height)
            // The whole framed card is the one tappable item (docs/ABI.md, "Item frames").
            canvas.itemFrame(0, x: 0, y: 0, width: width, height: canvas.height)
        }
    }
}

extension ProductFeedFloor.Product: FloorItem {}

let plugin = FloorPlugin(
    id: "com.floorkit.floor.product-feed", name: "Product feed", version: "1.0.0",
    floors: [ProductFeedFloor.self])

@_cdecl("floor_plugin_entry")
public func floorPluginEntry() -> UnsafeRawPointer { plugin.descriptor }
