import FloorKit

/// A `ProductFeed` floor's content, declared field by field: the decoder and the schema in one (FloorKit's
/// `Declared`). Only the decoding SDK is used here, so this file also builds for WebAssembly under
/// Embedded Swift (Scripts/wasm-decode); the cards are in ProductFeedFloor.swift.
struct ProductFeedFloor: Declared {
    struct Product: Declared {
        var id: String
        /// The title and the picture's URL are `Text`s: a feed's thousands of them share one buffer.
        var title: Text
        /// Yuan: a number, or text holding one ("199", "¥1,299.00"), drawn as "¥199.00".
        var price: Double
        /// The price before a discount, drawn struck through after `price` (on a host older than ABI 1.4,
        /// which cannot strike text, it is left out rather than shown as a second price).
        var originalPrice: Double? {
            get { originalPriceOrNaN.isNaN ? nil : originalPriceOrNaN }
            set { originalPriceOrNaN = newValue ?? .nan }
        }
        /// `originalPrice` stored as a plain Double, NaN for none: a `Double?` takes 16 bytes (its flag
        /// padded to 8), which made a product 104 bytes where 96 hold it (a feed keeps 43,000 of them;
        /// ProductFeedProductLayoutTests). No decoded amount is NaN (`Fields.amount` takes 0...maximum).
        private var originalPriceOrNaN: Double = .nan
        var img: Text
        var jump: Jump?

        /// The largest price: a trillion yuan, far above any product and far below Int's cents.
        static let maximumYuan = 1e12

        init(_ f: Fields) throws(DecodeError) {
            id = try f.string("id", "The product's id, unique in the feed (a next page's repeat is dropped).")
            title = try f.text(
                "title", "The product's name, bold beside the picture; a name too long for one line takes two.",
                .notBlank)
            price = try f.amount(
                "price", "The price in yuan: a number, or text holding one (\"199\", \"¥1,299.00\"); drawn as ¥199.00.",
                maximum: Self.maximumYuan)
            let originalPrice: Double? = try f.amount(
                "originalPrice",
                "The price before a discount, in yuan as `price` is, shown struck through after the price, with a sale badge (\"-25%\") under it when it is above the price.",
                maximum: Self.maximumYuan)
            img = try f.text("img", "The product picture's URL, 96 points square.", .notBlank)
            jump = try f.value("jump", "Where a tap on the card goes.")
            self.originalPrice = originalPrice
        }
    }

    /// A product that does not decode is left out with a warning naming its path; the rest of the feed shows.
    var items: [Product]
    /// The sort options of the strip above the cards, the current one first; none (or an empty list): no strip.
    /// A next page's floor that extends this one adds products only, so its `sorts` are not read.
    var sorts: [String]?

    init(_ f: Fields) throws(DecodeError) {
        items = try f.list(
            "items", "The products, one card each; a next page's floor with this id appends to them.", dropping: true)
        sorts = try f.strings(
            "sorts",
            "Sort options (\"综合 Best\", \"销量 Sales\", \"价格 Price\"), the current one first, in a strip above the cards that pins to the top of the screen while the feed is scrolled (the feed's sticky header, if any, hands over to it); leave it out for no strip."
        )
    }
}
