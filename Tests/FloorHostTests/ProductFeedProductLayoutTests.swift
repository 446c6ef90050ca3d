import FloorKit
import Testing

@testable import ProductFeedFloor

/// What a decoded product costs in memory: a feed keeps one a card (43,037 in the 8 MB benchmark page) until
/// the render ends, so its stride is part of the json render's peak (BENCHMARKS.md, "Peak memory").
struct ProductFeedProductLayoutTests {
    typealias Product = ProductFeedFloor.Product

    func decode(_ json: String) -> Product? {
        Array(json.utf8).withUnsafeBytes { DeclaredDecoding.decode(Product.self, from: $0) }.value
    }

    /// An id and two Texts (16 bytes each), two prices (8 each: the original one a Double with NaN for none,
    /// not a `Double?`'s 16) and a jump (32): 96 bytes, no padding.
    /// Prices are drawn as yuan with two decimals, written in place: the same text as "¥\(yuan).\(cents)".
    @Test func aPriceIsYuanWithTwoDecimals() {
        func interpolated(_ yuan: Double) -> String {
            let cents = Int((yuan * 100).rounded())
            return "¥\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
        }
        var generator = SystemRandomNumberGenerator()
        let prices: [Double] =
            [0, 0.001, 0.005, 0.01, 0.1, 0.99, 0.995, 1, 9.99, 10, 99.5, 199, 1_299, 123_456.78, Product.maximumYuan]
            + (0..<20_000).map { _ in Double(Int.random(in: 0...100_000_000, using: &generator)) / 100 }
            + (0..<2_000).map { _ in Double.random(in: 0...Product.maximumYuan, using: &generator) }
        let wrong = prices.filter { ProductFeedFloor.priceText($0) != interpolated($0) }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        #expect(ProductFeedFloor.priceText(199) == "¥199.00")
        #expect(ProductFeedFloor.priceText(0.05) == "¥0.05")
    }

    @Test func aProductIsStoredIn96Bytes() {
        #expect(MemoryLayout<Product>.stride == 96)
    }

    @Test func anOriginalPriceReadsAsItWasSentAndNoneAsNil() throws {
        let none = try #require(decode(#"{"id":"a","title":"t","price":1,"img":"i"}"#))
        #expect(none.originalPrice == nil)
        let null = try #require(decode(#"{"id":"a","title":"t","price":1,"originalPrice":null,"img":"i"}"#))
        #expect(null.originalPrice == nil)
        let zero = try #require(decode(#"{"id":"a","title":"t","price":1,"originalPrice":0,"img":"i"}"#))
        #expect(zero.originalPrice == 0)
        var text = try #require(decode(#"{"id":"a","title":"t","price":1,"originalPrice":"¥1,299.50","img":"i"}"#))
        #expect(text.originalPrice == 1299.5)
        text.originalPrice = nil
        #expect(text.originalPrice == nil)
    }
}
