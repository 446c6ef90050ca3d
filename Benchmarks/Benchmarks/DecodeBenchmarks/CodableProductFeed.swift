import Foundation

@testable import FloorKit

/// The baseline: ProductFeed's model as it was on the Codable path when issue 23 started (its products
/// through `@DroppingBrokenItems`, its price a single-value container trying text, then a number), decoded by
/// the SDK's FloorJSON as a Codable plugin's floors still are.
struct CodableProductFeed: Decodable {
    struct Product: Decodable {
        var id: String
        var title: String
        var price: Price
        var originalPrice: Price?
        var img: String
        var jump: Jump?
    }

    struct Price: Decodable {
        static let maximumYuan = 1e12
        var text: String
        var yuan: Double?
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let text = try? c.decode(String.self) {
                self.text = text
                yuan = Self.amount(text)
                return
            }
            let number: Double
            do {
                number = try c.decode(Double.self)
            } catch DecodingError.typeMismatch(_, let context) {
                throw DecodingError.typeMismatch(String.self, context)
            } catch DecodingError.valueNotFound(_, let context) {
                throw DecodingError.valueNotFound(String.self, context)
            }
            guard number >= 0, number <= Self.maximumYuan else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "price out of range: \(number)")
            }
            let cents = Int((number * 100).rounded())
            text = "¥\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
            yuan = number
        }

        static func amount(_ text: String) -> Double? {
            var digits = Substring(text)
            while digits.first == " " { digits.removeFirst() }
            while digits.last == " " { digits.removeLast() }
            if digits.first == "¥" || digits.first == "￥" { digits = digits.dropFirst() }
            let plain = digits.filter { $0 != "," }
            guard plain.contains(where: { $0.isASCII && $0.isNumber }),
                plain.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." }), let value = Double(plain),
                value.isFinite, value <= maximumYuan
            else { return nil }
            return value
        }
    }

    @DroppingBrokenItems var items: [Product]
    var sorts: [String]?
}

/// Both paths as a floor's decode runs them: the Codable one collecting the items it leaves out.
enum FeedDecoding {
    static func codable(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard
            let (feed, leftOut) = try? LeftOutItems.collecting({
                try FloorJSON.decode(CodableProductFeed.self, from: bytes)
            })
        else { fatalError("the Codable path refused the feed") }
        precondition(leftOut.isEmpty)
        return feed.items.count
    }

    static func declared(_ bytes: UnsafeRawBufferPointer) -> Int {
        let outcome = DeclaredDecoding.decode(ProductFeedFloor.self, from: bytes)
        guard let feed = outcome.value, outcome.leftOut.isEmpty else {
            fatalError("the declared path refused the feed")
        }
        return feed.items.count
    }
}
