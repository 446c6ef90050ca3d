import Testing
import UTF8Validation

@testable import FloorKit

/// `Fields.text`: a model's strings kept in the one buffer of their floor's decode (Text), read exactly as
/// `Fields.string` reads them (escapes, invalid UTF-8, rules, errors and their paths), and the Codable path
/// reading the same field into a Text.
struct DeclaredTextTests {
    struct Card: Declared {
        var id: String
        var title: Text
        var img: Text?

        init(_ f: Fields) throws(DecodeError) {
            id = try f.string("id")
            title = try f.text("title", "The name.", .notBlank)
            img = try f.text("img")
        }
    }

    struct Cards: Declared {
        var items: [Card]
        init(_ f: Fields) throws(DecodeError) { items = try f.list("items", dropping: true) }
    }

    /// The same fields read as Strings: what a Text must equal.
    struct StringCard: Declared {
        var id: String
        var title: String
        var img: String?

        init(_ f: Fields) throws(DecodeError) {
            id = try f.string("id")
            title = try f.string("title", "The name.", .notBlank)
            img = try f.string("img")
        }
    }

    func decode<T: Declared>(_ type: T.Type, _ json: [UInt8]) -> DecodeOutcome<T> {
        json.withUnsafeBytes { DeclaredDecoding.decode(T.self, from: $0) }
    }

    func decode<T: Declared>(_ type: T.Type, _ json: String) -> DecodeOutcome<T> {
        decode(T.self, Array(json.utf8))
    }

    @Test func escapedTextReadsAsTheStringDoes() throws {
        let json = #"{"id":"a","title":"q\"b\\s\/中\u4e2d\ud83d\ude00 tab\tend\ud800!","img":"plain https://x/1.jpg"}"#
        let card = try #require(decode(Card.self, json).value)
        let strings = try #require(decode(StringCard.self, json).value)
        #expect(String(card.title) == strings.title)
        #expect(card.title == "q\"b\\s/中中😀 tab\tend\u{FFFD}!")
        #expect(card.img == "plain https://x/1.jpg")
        #expect(card.title.utf8Count == strings.title.utf8.count)
    }

    /// Invalid UTF-8 in a plain string (no escape) is repaired as String(decoding:) repairs it: each bad
    /// sequence one U+FFFD. Overlong forms, surrogates, stray continuation bytes, a cut sequence at the end.
    @Test func invalidUTF8IsRepairedAsInAString() throws {
        let bad: [[UInt8]] = [
            [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x80, 0x41], [0xE4, 0xB8], [0xF4, 0x90, 0x80, 0x80],
            [0xF0, 0x8F, 0xBF, 0xBF], [0x41, 0xE4, 0xB8, 0xAD, 0xC3],
        ]
        for bytes in bad {
            let json = Array(#"{"id":"a","title":"x"#.utf8) + bytes + Array(#"y"}"#.utf8)
            let card = try #require(decode(Card.self, json).value)
            let expected = String(decoding: [0x78] + bytes + [0x79], as: UTF8.self)
            #expect(String(card.title) == expected, "\(bytes)")
            #expect(card.title.withUTF8 { ValidUTF8.check(UnsafeRawBufferPointer($0)) })
        }
    }

    /// The tape marks a plain string ASCII only when every byte of it is, and a Text of an ASCII string is
    /// kept without validating it again: a byte above 0x7F anywhere (in a word of eight, in the last one,
    /// in the tail) sends the text through validation, and a non-ASCII byte just after the closing quote
    /// does not make the string before it otherwise.
    @Test func aNonASCIIByteAnywhereIsValidated() throws {
        for length in 1..<20 {
            for at in 0..<length {
                for odd: [UInt8] in [[0xFF], [0xC3, 0xA9], [0x80]] {
                    var title = Array(repeating: UInt8(ascii: "a"), count: length)
                    title.replaceSubrange(at..<(at + 1), with: odd)
                    let json = Array(#"{"id":"a","title":""#.utf8) + title + Array(#"","img":"é"}"#.utf8)
                    let card = try #require(decode(Card.self, json).value)
                    #expect(String(card.title) == String(decoding: title, as: UTF8.self), "\(title)")
                    #expect(card.title.withUTF8 { ValidUTF8.check(UnsafeRawBufferPointer($0)) })
                }
            }
        }
        let tape = try Array(#"["abcdefgh","ab","abc\u00e9","é"]"#.utf8).withUnsafeBytes { bytes in
            let tape = try JSONTape(bytes)
            return withExtendedLifetime(tape) { tape.nodes.map(\.ascii) }
        }
        #expect(tape == [false, true, true, true, false])
    }

    @Test func theValidatorAgreesWithTheStandardLibrary() {
        var samples: [[UInt8]] = [Array("plain ascii, long enough for eight at a time".utf8), Array("中文😀é".utf8)]
        for a in [0x00, 0x7F, 0x80, 0xBF, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF] as [UInt8] {
            for b in [0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0x41] as [UInt8] {
                samples.append([a, b, 0x80, 0x80])
                samples.append([0x41, a, b])
                // After 0 to 11 ASCII bytes (the word check jumps to the first byte that is not), then more.
                for ascii in 0..<12 {
                    samples.append(Array(repeating: 0x41, count: ascii) + [a, b, 0x80, 0x80] + [0x41, 0x42, 0x43])
                }
            }
        }
        for bytes in samples {
            let valid = bytes.withUnsafeBytes { ValidUTF8.check($0) }
            #expect(valid == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
        }
    }

    @Test func aBlankTextIsRefusedAtItsPathAsAStringIs() {
        for title in [#""#, #" \t\u3000 "#, "\u{2003}\u{A0}"] {
            let json = #"{"items":[{"id":"a","title":"ok"},{"id":"b","title":"\#(title)"}]}"#
            let outcome = decode(Cards.self, json)
            #expect(outcome.value?.items.map(\.id) == ["a"])
            #expect(outcome.leftOut.map(\.path) == ["items[1].title"])
            #expect(outcome.leftOut.map(\.message) == ["is empty; item left out"])
        }
        #expect(decode(Cards.self, #"{"items":[{"id":"a","title":" x "}]}"#).value?.items.first?.title == " x ")
    }

    @Test func aTextOfAnotherKindIsRefusedWithItsPath() {
        let outcome = decode(Cards.self, #"{"items":[{"id":"a","title":"ok","img":7}]}"#)
        #expect(outcome.leftOut.map(\.path) == ["items[0].img"])
        #expect(outcome.leftOut.map(\.message) == ["expected a string, found number; item left out"])
    }

    /// One buffer a decode, holding exactly its texts once the decode ends (reserved at the floor's size).
    @Test func aFloorsTextsShareOneBufferFittedToThem() throws {
        let items = (0..<50).map { #"{"id":"p\#($0)","title":"title number \#($0)","img":"https://img/\#($0).jpg"}"# }
        let cards = try #require(decode(Cards.self, #"{"items":[\#(items.joined(separator: ","))]}"#).value)
        let buffer = cards.items[0].title.buffer
        #expect(cards.items.allSatisfy { $0.title.buffer === buffer && $0.img?.buffer === buffer })
        let bytes = cards.items.reduce(0) { $0 + $1.title.utf8Count + ($1.img?.utf8Count ?? 0) }
        #expect(buffer.count == bytes)
        #expect(cards.items[49].title == "title number 49" && cards.items[49].img == "https://img/49.jpg")
    }

    /// Describing (the schema): a text field is a string field with its rule.
    @Test func aTextFieldIsAStringInTheSchema() throws {
        let text = JSONSchema(declared: DeclaredDecoding.declaration(of: Card.self)).json
        #expect(text.contains(#""title":{"#))
        #expect(text == JSONSchema(declared: DeclaredDecoding.declaration(of: StringCard.self)).json)
    }

    struct CodableCard: Decodable {
        var title: Text
        var img: Text?
    }

    @Test func theCodablePathReadsATextToo() throws {
        let json = #"{"title":"a\"b 中","img":null}"#
        let card = try Array(json.utf8).withUnsafeBytes { try FloorJSON.decode(CodableCard.self, from: $0) }
        #expect(card.title == "a\"b 中")
        #expect(card.img == nil)
    }
}

extension DeclaredTextTests {
    struct Linked: Declared {
        var title: Text
        var jump: Jump?
        init(_ f: Fields) throws(DecodeError) {
            title = try f.text("title")
            jump = try f.value("jump")
        }
    }

    /// A jump's URL is kept in the floor's text buffer and read as the String it was.
    @Test func aJumpsURLIsKeptAsATextAndReadAsAString() throws {
        let linked = try #require(
            decode(Linked.self, #"{"title":"t","jump":{"url":"app://product/\"1\"","eventId":"e"}}"#).value)
        let jump = try #require(linked.jump)
        #expect(jump.url == "app://product/\"1\"" && jump.eventId == "e")
        #expect(jump.urlText.buffer === linked.title.buffer)
        #expect(jump == Jump(url: "app://product/\"1\"", eventId: "e"))
        var changed = jump
        changed.url = "app://other"
        #expect(changed.url == "app://other" && Action(changed).url == "app://other")
    }
}

extension DeclaredTextTests {
    struct CodableLinks: Decodable {
        var title: Text
        var items: [Jump]
    }

    /// FloorJSON keeps a decode's texts (a Text field, each jump's URL) in one buffer, as Fields does; the
    /// errors are those of decoding a String, at the same paths.
    @Test func theCodablePathSharesOneBufferAndKeepsItsErrors() throws {
        let json = #"{"title":"t","items":[{"url":"app://p/1"},{"url":"app://p/\"2\"","eventId":"e"}]}"#
        let links = try Array(json.utf8).withUnsafeBytes { try FloorJSON.decode(CodableLinks.self, from: $0) }
        #expect(links.items.map(\.url) == ["app://p/1", "app://p/\"2\""])
        #expect(links.items.allSatisfy { $0.urlText.buffer === links.title.buffer })
        #expect(links.title.buffer.count == 1 + 9 + 11)
        let bad = #"{"title":"t","items":[{"url":7}]}"#
        let problem = Array(bad.utf8).withUnsafeBytes { bytes in
            do {
                _ = try FloorJSON.decode(CodableLinks.self, from: bytes)
                return nil as DecodingProblem?
            } catch {
                return DecodingProblem(error)
            }
        }
        #expect(problem?.path == "items[0].url")
        #expect(problem?.message == "expected a string, found number")
    }
}
