import CFloorABI
import Testing

@testable import FloorKit

/// The declared path (`Declared`, `Fields`): the same cases as FloorJSONTests, which drive the Codable
/// path, with the same paths and messages; and the schema the same declaration states.
struct DeclaredDecodingTests {
    struct Product: Declared {
        var id: String
        var title: String
        var price: Double
        var originalPrice: Double?
        var img: String

        init(_ f: Fields) throws(DecodeError) {
            id = try f.string("id")
            title = try f.string("title", "The name.", .notBlank)
            price = try f.amount("price", maximum: 1e12)
            originalPrice = try f.amount("originalPrice", maximum: 1e12)
            img = try f.string("img", "", .nonEmpty)
        }
    }

    struct Feed: Declared {
        var header: FloorHeader?
        var items: [Product]
        var columns: Int
        var sorts: [String]?

        init(_ f: Fields) throws(DecodeError) {
            header = try f.value("header")
            items = try f.list("items", "The products.", minItems: 1, dropping: true)
            columns = try f.integer("columns", "Columns.", 1...10, default: 4)
            sorts = try f.strings("sorts")
        }
    }

    struct Prices: Declared {
        var price: Double
        init(_ f: Fields) throws(DecodeError) { price = try f.number("price") }
    }

    func decode<T: Declared>(_ type: T.Type, _ json: String) -> DecodeOutcome<T> {
        Array(json.utf8).withUnsafeBytes { DeclaredDecoding.decode(T.self, from: $0) }
    }

    let good = #"{"id":"b","title":"t","price":"¥1","img":"i"}"#

    @Test func stringsAreUnescapedExactly() throws {
        let product = try #require(
            decode(Product.self, #"{"id":"a","title":"q\"b\\s\/中\u4e2d\ud83d\ude00 tab\tend","price":1,"img":"i"}"#)
                .value)
        #expect(product.title == "q\"b\\s/中中😀 tab\tend")
    }

    @Test func numbersInEveryJSONForm() throws {
        let prices = try ["1e2", "59.9", "-0", "0.125", "2E+1", "12345678901234567"].map {
            try #require(decode(Prices.self, #"{"price":\#($0)}"#).value).price
        }
        #expect(prices == [100, 59.9, 0, 0.125, 20, 12_345_678_901_234_567])
        #expect(prices[2].sign == .minus, "-0 stays negative zero")
        #expect(decode(Prices.self, #"{"price":1e400}"#).error?.message == "number 1e400 is out of range")
    }

    @Test func theLastOfDuplicateKeysWins() throws {
        let product = try #require(
            decode(Product.self, #"{"id":"a","title":"first","title":"second","price":1,"img":"i"}"#).value)
        #expect(product.title == "second")
    }

    /// A look-up resumes after the member last found in its object (Fields.member): in every order of the
    /// members, with a nested object between the reads and an optional field absent or present, each field
    /// is still found, and a field read twice reads the same.
    @Test func fieldsAreFoundInEveryOrderOfTheMembers() throws {
        struct Card: Declared {
            var id: String
            var title: String
            var price: Double
            var originalPrice: Double?
            var jump: Jump?
            var again: String

            init(_ f: Fields) throws(DecodeError) {
                id = try f.string("id")
                title = try f.string("title")
                price = try f.amount("price", maximum: 1e12)
                originalPrice = try f.amount("originalPrice", maximum: 1e12)
                jump = try f.value("jump")
                again = try f.string("id")
            }
        }
        func permutations(_ members: [String]) -> [[String]] {
            guard members.count > 1 else { return [members] }
            return members.indices.flatMap { i in
                var rest = members
                let first = rest.remove(at: i)
                return permutations(rest).map { [first] + $0 }
            }
        }
        let members = [#""id":"a""#, #""title":"t""#, #""price":2"#, #""jump":{"eventId":"e","url":"u"}"#, #""x":0"#]
        for order in permutations(members) {
            for extra in ["", #","originalPrice":3"#] {
                let card = try #require(decode(Card.self, "{" + order.joined(separator: ",") + extra + "}").value)
                #expect(card.id == "a" && card.again == "a" && card.title == "t" && card.price == 2)
                #expect(card.originalPrice == (extra.isEmpty ? nil : 3))
                #expect(card.jump == Jump(url: "u", eventId: "e"))
            }
        }
    }

    /// The tape marks an object whose keys may repeat (the same length and first byte, or an escaped key):
    /// only those are searched member by member for the last match.
    @Test func theTapeMarksObjectsWhoseKeysMayRepeat() throws {
        let json = #"{"title":1,"price":2,"same":{"a":1,"a":2},"escaped":{"x":1,"\u0079":2},"list":[{"id":1}]}"#
        try Array(json.utf8).withUnsafeBytes { bytes in
            let tape = try JSONTape(bytes)
            let objects = tape.nodes.indices.filter { tape.nodes[$0].kind == .object }
            #expect(objects.map { tape.nodes[$0].keysMayRepeat } == [false, true, true, false])
        }
        #expect(decode(Prices.self, #"{"price":1,"prize":3,"price":2}"#).value?.price == 2)
    }

    /// A key written with an escape is the key it spells, found as a plain one is, and the last of the two
    /// wins whichever is escaped; a key of the same length that differs is not the field.
    @Test func anEscapedKeyIsTheKeyItSpells() throws {
        let escapedLast = #"{"id":"a","title":"plain","t\u0069tle":"escaped","price":1,"img":"i"}"#
        #expect(decode(Product.self, escapedLast).value?.title == "escaped")
        let plainLast = #"{"id":"a","t\u0069tle":"escaped","title":"plain","price":1,"img":"i"}"#
        #expect(decode(Product.self, plainLast).value?.title == "plain")
        let unlike = decode(Product.self, #"{"id":"a","titlf":"x","t\u0069tlf":"y","price":1,"img":"i"}"#)
        #expect(unlike.error?.path == "title" && unlike.error?.message == "required field is missing")
    }

    /// A wrong list refuses the floor; a wrong item is left out with its path; both say what was found.
    @Test func wrongTypesNameTheirPathAndWhatWasFound() throws {
        let refused: [(String, String, String)] = [
            (#""items":"none""#, "items", "expected an array, found a string"),
            (
                #""header":{"title":"h","sticky":"yes"},"items":[]"#, "header.sticky",
                "expected true or false, found a string"
            ),
            (#""items":[\#(good)],"columns":0"#, "columns", "expected a whole number from 1 to 10, found 0"),
            (
                #""items":[\#(good)],"columns":2.5"#, "columns",
                "number 2.5 is not a whole number from \(Int.min) to \(Int.max)"
            ),
            (#""items":[]"#, "items", "expected at least 1 item, found none"),
            (#""items":[\#(good)],"sorts":[1]"#, "sorts[0]", "expected a string, found number"),
        ]
        for (fields, path, message) in refused {
            let problem = try #require(decode(Feed.self, "{\(fields)}").error, "\(fields)")
            #expect(
                problem.path == path && problem.message == message, "\(fields): \(problem.path): \(problem.message)")
        }
        let leftOut: [(String, String, String)] = [
            (#"{"id":"a","title":["x"],"price":1,"img":"i"}"#, "items[0].title", "expected a string, found an array"),
            (
                #"{"id":"a","title":"t","price":true,"img":"i"}"#, "items[0].price",
                "expected a number or a numeric string, found bool"
            ),
            (#"{"id":"a","title":"t","price":1}"#, "items[0].img", "required field is missing"),
            (#"{"id":null,"title":"t","price":1,"img":"i"}"#, "items[0].id", "expected a string, found null"),
            (#"{"id":"a","title":" \u3000","price":1,"img":"i"}"#, "items[0].title", "is empty"),
            (#"{"id":"a","title":"\t \u00a0","price":1,"img":"i"}"#, "items[0].title", "is empty"),
            (#"{"id":"a","title":"t","price":1,"img":""}"#, "items[0].img", "is empty"),
            (
                #"{"id":"a","title":"t","price":"19x9","img":"i"}"#, "items[0].price",
                #""19x9" is not a number (digits, an optional ¥ before them, ',' between them, '.' before a fraction)"#
            ),
            (
                #"{"id":"a","title":"t","price":-1,"img":"i"}"#, "items[0].price",
                "expected a number from 0 to 1000000000000, found -1"
            ),
            ("7", "items[0]", "expected an object, found number"),
        ]
        for (item, path, message) in leftOut {
            let outcome = decode(Feed.self, #"{"items":[\#(item),\#(good)]}"#)
            #expect(outcome.value?.items.map(\.id) == ["b"], "\(item)")
            #expect(
                outcome.leftOut.map { "\($0.path): \($0.message)" } == ["\(path): \(message); item left out"],
                "\(item)")
        }
    }

    /// Issue 21, item 6: a numeric string is a number of yuan.
    @Test func numericTextIsANumber() throws {
        let cases: [(String, Double?)] = [
            ("199", 199), ("¥199.00", 199), ("￥ 1,299.50", 1299.5), (" 59.9 ", 59.9), ("0", 0),
            ("999,999,999,999.99", 999_999_999_999.99), ("1,000,000,000,000", nil), ("19x9", nil), ("", nil),
            ("¥", nil), ("1,,2", nil), ("1,", nil), (",1", nil), ("1.", nil), (".5", nil), ("-1", nil), ("¥99起", nil),
            ("1e3", nil), ("199\n", nil),
        ]
        for (text, value) in cases {
            #expect(NumericText.value(text.utf8) == value, "\(text)")
        }
    }

    /// A price string is read from its bytes as the tape has them, or unescaped first: the same amounts,
    /// and invalid UTF-8 refused with its repaired text, as when every price string was made a String first.
    @Test func aNumericStringReadsAlikePlainEscapedOrInvalid() throws {
        func price(_ written: [UInt8]) -> (Double?, String?) {
            let json = Array(#"{"id":"b","title":"t","img":"i","price":""#.utf8) + written + Array(#""}"#.utf8)
            let outcome = json.withUnsafeBytes { DeclaredDecoding.decode(Product.self, from: $0) }
            return (outcome.value?.price, outcome.error.map { "\($0.path): \($0.message)" })
        }
        #expect(price(Array("¥1,299.50".utf8)).0 == 1299.5)
        #expect(price(Array(#"\u00a51,299.50"#.utf8)).0 == 1299.5)
        #expect(price(Array(#" 12\u002e5 "#.utf8)).0 == 12.5)
        // "¥" cut to its lead byte, and a lone continuation byte where a digit goes.
        for invalid: [UInt8] in [[0xC2, 0x31, 0x32], [0x31, 0xA5, 0x32], [0xEF, 0xBF, 0x31]] {
            let repaired = String(decoding: invalid, as: UTF8.self)
            #expect(
                price(invalid).1
                    == "price: \"\(repaired)\" is not a number (digits, an optional ¥ before them, ',' between them, '.' before a fraction)"
            )
        }
    }

    @Test func anOptionalPropertyIsAnOptionalField() throws {
        let product = try #require(
            decode(Product.self, #"{"id":"a","title":"t","price":1,"originalPrice":null,"img":"i"}"#).value)
        #expect(product.originalPrice == nil)
        let schema = JSONSchema.declared(Feed.self)
        #expect(schema.required == ["items"])
        let item = try #require(schema[path: "items[]"])
        #expect(item.required == ["id", "title", "price", "img"])
        #expect(item[path: "originalPrice"]?.types == ["string", "number", "null"])
        #expect(schema[path: "items"]?.minItems == 1)
        #expect(
            schema[path: "columns"]?.json
                == #"{"type":["integer","null"],"description":"Columns.","minimum":1,"maximum":10,"default":4}"#)
        #expect(item[path: "img"]?.minLength == 1)
        #expect(item[path: "price"]?.pattern == NumericText.pattern)
        #expect(schema[path: "sorts"]?.json == #"{"type":["array","null"],"items":{"type":"string"}}"#)
    }

    /// Decoding/ cannot import the ABI's header (it builds for WebAssembly alone): its margin bound is the
    /// header's row height bound.
    @Test func theMarginBoundIsTheABIs() {
        #expect(FloorMargin.most == FLOOR_MAX_ROW_HEIGHT)
    }

    @Test func nestingBeyondTheLimitIsRefusedNotCrashedOn() throws {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        let problem = try #require(decode(Product.self, #"{"id":"a","extra":\#(deep)}"#).error)
        #expect(problem.path == "")
        #expect(problem.message.hasPrefix("The given data was not valid JSON: nested deeper than 256 levels"))
    }
}
