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
