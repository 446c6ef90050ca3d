import Testing

@testable import FloorKit

/// The SDK decodes each floor's JSON with its own decoder (FloorJSON, over a JSONTape), not Foundation's,
/// and turns what it throws into the ABI's problems (DecodingProblem: a path in the floor and a sentence).
/// The same cases as the root package's SDKDecodingTests, which drive them end to end through floorhost
/// and the shipped ProductFeed plugin (paths there are prefixed with the floor's path in the page); here
/// the decoder is called directly, as the SDK's decode thunk calls it.
struct FloorJSONTests {
    struct Product: Decodable {
        var id: String
        var title: String
        var price: String
        var img: String
    }

    struct Feed: Decodable {
        var header: FloorHeader?
        @DroppingBrokenItems var items: [Product]
    }

    struct Price: Decodable {
        var price: Double
    }

    /// `json` decoded as `T` as a floor's decode is, with the items @DroppingBrokenItems left out.
    func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> (T, [FloorProblem]) {
        try Array(json.utf8).withUnsafeBytes { bytes in
            try LeftOutItems.collecting { try FloorJSON.decode(T.self, from: bytes) }
        }
    }

    /// The problem a refused decode of `json` reports, or nil when it decodes.
    func refusal<T: Decodable>(_ type: T.Type, _ json: String) -> DecodingProblem? {
        do {
            _ = try decode(T.self, json)
            return nil
        } catch {
            return DecodingProblem(error)
        }
    }

    @Test func stringsAreUnescapedExactly() throws {
        let (product, _) = try decode(
            Product.self, #"{"id":"a","title":"q\"b\\s\/中\u4e2d\ud83d\ude00 tab\tend","price":"¥1","img":"i"}"#)
        #expect(product.title == "q\"b\\s/中中😀 tab\tend")
    }

    @Test func aLoneSurrogateBecomesTheReplacementCharacter() throws {
        let (product, _) = try decode(Product.self, #"{"id":"a","title":"x\ud800y","price":"¥1","img":"i"}"#)
        #expect(product.title == "x\u{FFFD}y")
    }

    @Test func numbersInEveryJSONForm() throws {
        let prices = try ["1e2", "59.9", "-0", "0.125", "2E+1"].map {
            try decode(Price.self, #"{"price":\#($0)}"#).0.price
        }
        #expect(prices == [100, 59.9, 0, 0.125, 20])
        #expect(prices[2].sign == .minus, "-0 stays negative zero")
    }

    @Test func theLastOfDuplicateKeysWins() throws {
        let (product, _) = try decode(
            Product.self, #"{"id":"a","title":"first","title":"second","price":"¥1","img":"i"}"#)
        #expect(product.title == "second")
    }

    /// A wrong list refuses the floor; a wrong item is left out with its path; both say what was found.
    @Test func wrongTypesNameTheirPathAndWhatWasFound() throws {
        let refused: [(String, String, String)] = [
            (#""items":"none""#, "items", "expected an array, found a string"),
            (
                #""header":{"title":"h","sticky":"yes"},"items":[]"#, "header.sticky",
                "expected true or false, found a string"
            ),
        ]
        for (fields, path, message) in refused {
            let problem = try #require(refusal(Feed.self, "{\(fields)}"), "\(fields)")
            #expect(
                problem.path == path && problem.message == message, "\(fields): \(problem.path): \(problem.message)")
        }
        let leftOut: [(String, String, String)] = [
            (
                #"{"id":"a","title":["x"],"price":"¥1","img":"i"}"#, "items[0].title",
                "expected a string, found an array"
            ),
            (#"{"id":"a","title":"t","price":true,"img":"i"}"#, "items[0].price", "expected a string, found bool"),
            (#"{"id":"a","title":"t","price":"¥1"}"#, "items[0].img", "required field is missing"),
            (#"{"id":null,"title":"t","price":"¥1","img":"i"}"#, "items[0].id", "expected a string, found null"),
            ("7", "items[0]", "expected an object, found number"),
        ]
        for (item, path, message) in leftOut {
            let (feed, problems) = try decode(
                Feed.self, #"{"items":[\#(item),{"id":"b","title":"t","price":"¥1","img":"i"}]}"#)
            #expect(feed.items.map(\.id) == ["b"], "\(item)")
            #expect(problems == [FloorProblem(path, "\(message); item left out")], "\(item): \(problems)")
        }
    }

    @Test func nestingBeyondTheLimitIsRefusedNotCrashedOn() throws {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        let problem = try #require(
            refusal(Product.self, #"{"id":"a","title":"t","price":"¥1","img":"i","extra":\#(deep)}"#))
        #expect(problem.path == "")
        #expect(
            problem.message.hasPrefix("The given data was not valid JSON: nested deeper than 256 levels"),
            "\(problem.message)")
    }
}
