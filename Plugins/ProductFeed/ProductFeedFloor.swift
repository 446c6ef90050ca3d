import FloorKit

/// `ProductFeed`: product cards, one row each, under an optional sticky strip of sort options. The infinite
/// feed that next pages extend.
struct ProductFeedFloor: ItemsFloor {
    static let floorType = "ProductFeed"
    static let rowTypes = [sortStrip, card]
    static let sampleJSON =
        #"{"type":"ProductFeed","id":"feed","header":{"title":"猜你喜欢","sticky":true},"sorts":["综合 Best","销量 Sales","价格 Price"],"items":[{"id":"p1","title":"无线蓝牙耳机 Pro","price":"¥199.00","img":"https://img.example.com/p/1.jpg","jump":{"url":"app://product/1","eventId":"feed_click"}},{"id":"p2","title":"Stainless steel water bottle 750ml","price":59.9,"originalPrice":79,"img":"https://img.example.com/p/2.jpg","jump":{"url":"app://product/2"}}]}"#

    struct Product: Decodable, FloorItem {
        var id: String
        var title: String
        var price: Price
        /// The price before a discount, drawn struck through after `price` (on a host older than ABI 1.4,
        /// which cannot strike text, it is left out rather than shown as a second price).
        var originalPrice: Price?
        var img: String
        var jump: Jump?
    }

    /// A price as the CMS sends it: display text ("¥199.00") or a number of yuan (199).
    struct Price: Decodable, JSONSchemaDescribed {
        static let jsonSchema = JSONSchema(
            types: ["string", "number"], description: "Display text (\"¥199.00\") or a number of yuan, 0 to 10^12.",
            minimum: 0, maximum: maximumYuan)
        /// The largest numeric price: a trillion yuan, far above any product and far below Int's cents.
        static let maximumYuan = 1e12
        var text: String
        /// The amount in yuan: the number sent, or the text read as one ("¥1,299.00", "59.9"); nil for text
        /// that is not a plain amount ("¥99起", "Free"), which no discount can be taken of.
        var yuan: Double?
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let text = try? c.decode(String.self) {
                self.text = text
                yuan = Self.amount(text)
                return
            }
            // Any other value must be a number of yuan a shop could charge: checked before it becomes cents,
            // so that no number (1e308, 2^63, -0.5, 1e400) can overflow the conversion.
            let number: Double
            do {
                number = try c.decode(Double.self)
            } catch DecodingError.typeMismatch(_, let context) {
                throw DecodingError.typeMismatch(String.self, context)  // neither text nor a number: say text
            } catch DecodingError.valueNotFound(_, let context) {
                throw DecodingError.valueNotFound(String.self, context)
            }
            guard number >= 0, number <= Self.maximumYuan else {
                throw DecodingError.dataCorruptedError(
                    in: c,
                    debugDescription:
                        "price must be text or a number of yuan from 0 to \(Int(Self.maximumYuan)), found \(number)")
            }
            let cents = Int((number * 100).rounded())
            text = "¥\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
            yuan = number
        }

        /// Display text as yuan: an optional "¥" (or "￥"), then digits with "," separators and one ".".
        static func amount(_ text: String) -> Double? {
            var digits = Substring(text.trimmingSpaces)
            if digits.first == "¥" || digits.first == "￥" { digits = digits.dropFirst() }
            let plain = digits.filter { $0 != "," }
            guard plain.contains(where: \.isASCIIDigit), plain.allSatisfy({ $0.isASCIIDigit || $0 == "." }),
                let value = Double(plain), value.isFinite, value <= maximumYuan
            else { return nil }
            return value
        }
    }

    /// A product that does not decode is left out with a warning naming its path; the rest of the feed shows.
    @DroppingBrokenItems var items: [Product]
    /// The sort options of the strip above the cards, the current one first; none (or an empty list): no strip.
    /// A next page's floor that extends this one adds products only, so its `sorts` are not read.
    var sorts: [String]?

    static let schemaNotes: [String: SchemaNote] = [
        "items": "The products, one card each; a next page's floor with this id appends to them.",
        "items[].id": "The product's id, unique in the feed (a next page's repeat is dropped).",
        "items[].title": "The product's name, bold beside the picture; a name too long for one line takes two.",
        "items[].originalPrice":
            "The price before a discount, shown struck through after the price (text or a number of yuan), with a sale badge under the price: the discount (\"-25%\") when both prices are amounts, else \"SALE\"; none when it is not above the price.",
        "items[].img": "The product picture's URL, 96 points square.",
        "items[].jump": "Where a tap on the card goes.",
        "sorts":
            "Sort options (\"综合 Best\", \"销量 Sales\", \"价格 Price\"), the current one first, in a strip above the cards that pins to the top of the screen while the feed is scrolled (the feed's sticky header, if any, hands over to it); leave it out for no strip.",
    ]

    func validate() -> [FloorProblem] {
        items.enumerated().flatMap { index, product in
            [(product.title, "title"), (product.img, "img"), (product.price.text, "price")]
                .filter { $0.0.isBlank }
                .map { FloorProblem("items[\(index)].\($0.1)", "is empty") }
        }
    }

    func expand(into rows: inout FloorRows<ProductFeedFloor>) {
        if let sorts, !sorts.isEmpty { rows.append(Self.sortStrip, sticky: true) }
        _ = expand(items: items.indices, into: &rows)
    }

    /// One card per item: a next page's items are listed alone, so a long feed extends in O(items added)
    /// (the sort strip leads the floor's rows, so the rows already laid out stay as they are).
    func expand(items range: Range<Int>, into rows: inout FloorRows<ProductFeedFloor>) -> Bool {
        for item in range { rows.append(Self.card, item: item) }
        return true
    }

    /// Where the text beside the picture starts, and the points it leaves at the right.
    static let textX = 116.0, textMargin = 124.0

    /// The title's lines in a text column `available` points wide: one when it fits, else two, the first
    /// the longest prefix that fits (cut after a space when there is one), the second the rest (the canvas
    /// cuts it). `measure` is TextMetrics in the height calculator and the canvas in the cell: the same
    /// widths, so the cell draws the lines the height made room for. O(log n) measurements.
    static func titleLines(_ title: String, available: Double, measure: (String) -> Double) -> [String] {
        guard measure(title) > available else { return [title] }
        let characters = Array(title)
        var low = 0
        var high = characters.count  // the longest fitting prefix has `low` characters
        while low < high {
            let mid = (low + high + 1) / 2
            if measure(String(characters[..<mid])) <= available { low = mid } else { high = mid - 1 }
        }
        guard low > 0 else { return [title] }  // not even one character fits: one line, cut by the canvas
        var cut = low
        if let space = characters[..<low].lastIndex(of: " "), space > 0 { cut = space + 1 }
        let first = String(characters[..<cut]).trimmingTrailingSpaces
        let rest = String(characters[cut...])
        return rest.isEmpty ? [first] : [first, rest]
    }

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
    /// 1 to 99) when both prices are amounts, "SALE" when either is text no percentage can be taken of, and
    /// nil when the original price is not above the price (nothing was taken off).
    static func discountLabel(price: Price, original: Price) -> String? {
        guard let now = price.yuan, let before = original.yuan else { return "SALE" }
        guard before > now else { return nil }
        return "-\(min(99, max(1, Int(((1 - now / before) * 100).rounded()))))%"
    }

    /// The badge's padding left and right of its label: one column of the text preview.
    static let badgePadding = 5.0

    /// The sale badge, one text line high with 2 points above and below it, at `y` in the text column: the
    /// label centred in the price colour on an accent fill (drawn first, so the label sits on it), which is
    /// the label's measured width and a padding each side; a backend whose font runs wider than the measure
    /// (HTML) uses the padding before it cuts the label. Left out where the column cannot hold it, so the card
    /// never draws outside its cell.
    static func drawSaleBadge(_ label: String, y: Double, canvas: Canvas) {
        let width = canvas.measure(label, style: .accent) + 2 * badgePadding
        guard textX + width <= canvas.width - 8 else { return }
        canvas.fill(x: textX, y: y, width: width, height: 16, tone: .accent)
        canvas.text(label, x: textX, y: y + 2, maxWidth: width, style: [.accent, .center])
    }

    /// A card: the picture on the left, title and price beside it. A title too long for its line takes
    /// two, and the card grows a line (108 points, 120 with a two-line title). An original price follows
    /// the price, muted and struck through, and puts a sale badge under the price (on a host older than
    /// ABI 1.4 neither is drawn: it would show the original price unstruck, and the badge's fill as a frame).
    static let card = RowType<ProductFeedFloor>(
        "ProductCard",
        height: { floor, item, width in
            let lines = titleLines(floor.items[item].title, available: width - textMargin) {
                TextMetrics.width(of: $0, style: .bold)
            }
            return 108 + 12 * Double(lines.count - 1)
        },
        cell: { floor, item, canvas in
            let product = floor.items[item]
            let available = canvas.width - textMargin
            let lines = titleLines(product.title, available: available) { canvas.measure($0, style: .bold) }
            let extra = 12 * Double(lines.count - 1)
            canvas.image(product.img, x: 8, y: 0, width: 96, height: 96)
            for (index, line) in lines.enumerated() {
                canvas.text(line, x: textX, y: 12 + 12 * Double(index), maxWidth: available, style: .bold)
            }
            canvas.text(product.price.text, x: textX, y: 60 + extra, maxWidth: available, style: .accent)
            if let original = product.originalPrice, canvas.supportsStrike {
                let x = textX + canvas.measure(product.price.text, style: .accent) + 10
                let room = canvas.width - 8 - x
                if room > 0 {
                    canvas.text(original.text, x: x, y: 60 + extra, maxWidth: room, style: [.muted, .strike])
                }
                if let label = discountLabel(price: product.price, original: original) {
                    drawSaleBadge(label, y: 78 + extra, canvas: canvas)
                }
            }
            canvas.box(x: 8, y: 96 + extra, width: canvas.width - 16, height: 0)
            // The whole card above its rule is the one tappable item (docs/ABI.md, "Item frames").
            canvas.itemFrame(0, x: 0, y: 0, width: canvas.width, height: 96 + extra)
        },
        action: { floor, item, _ in
            let product = floor.items[item]
            return product.jump.map { Action($0, params: ["productId": product.id, "position": String(item)]) }
        })
}

let plugin = FloorPlugin(
    id: "com.floorkit.floor.product-feed", name: "Product feed", version: "1.0.0",
    floors: [ProductFeedFloor.self])

@_cdecl("floor_plugin_entry")
public func floorPluginEntry() -> UnsafeRawPointer { plugin.descriptor }

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s.removeLast() }
        return String(s)
    }

    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
