import FloorCore
import FloorRuntime
import Foundation
import Testing

/// The page walk's fast paths (JSONMultibyteRun, PropertyKeys, JSONNumberValue, CharacterClass's ASCII
/// bitmap, escaped strings decoded once) must answer exactly as the slow paths they stand in front of.
struct WalkFastPathTests {
    // MARK: Multi-byte runs in strings

    /// What the string scanner said before the runs: each non-ASCII sequence through the full check.
    static func bySequence(_ bytes: [UInt8], from: Int) -> (end: Int?, error: JSONSyntaxError?) {
        bytes.withUnsafeBytes { raw in
            let cursor = JSONCursor(raw.baseAddress!, count: raw.count, skippingBOM: false)
            var i = from
            do throws(JSONSyntaxError) {
                while i < raw.count {
                    let b = raw[i]
                    if b == UInt8(ascii: "\"") { return (i, nil) }
                    i = b >= 0x80 ? try cursor.utf8Sequence(at: i) : i + 1
                }
                return (nil, nil)
            } catch {
                return (nil, error)
            }
        }
    }

    /// Sequences valid and not, each at every offset within two words of a string mixing ASCII and CJK:
    /// the scanner accepts exactly what Swift's UTF-8 decoder accepts, and fails at the offset and with
    /// the message the full check gives.
    @Test func invalidUTF8AtEveryOffsetFailsWhereTheFullCheckFails() throws {
        let sequences: [[UInt8]] = [
            [0xC3, 0xA9], [0xE4, 0xB8, 0xAD], [0xEF, 0xBF, 0xBD], [0xF0, 0x9F, 0x98, 0x80], [0xE0, 0xA0, 0x80],
            [0xED, 0x9F, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF], [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF],
            [0xC2], [0xC2, 0x41], [0xE4, 0xB8], [0xE4, 0x41, 0x80], [0xE4, 0xB8, 0x41], [0xE0, 0x80, 0x80],
            [0xED, 0xA0, 0x80], [0xEE, 0x80], [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80], [0xFE], [0xFF], [0xE4, 0xB8, 0xAD, 0xE4, 0xB8],
        ]
        let cjk = Array("中文".utf8)
        for sequence in sequences {
            for offset in 0..<16 {
                for tail in [Array("b\"}".utf8), cjk + Array("\"}".utf8), []] {
                    let content = Array(String(repeating: "a", count: offset).utf8) + cjk + sequence + tail
                    let bytes = Array("{\"x\":\"".utf8) + content
                    let reference = Self.bySequence(bytes, from: 6)
                    let scanned: (end: Int?, error: JSONSyntaxError?) = bytes.withUnsafeBytes { raw in
                        var cursor = JSONCursor(raw.baseAddress!, count: raw.count, skippingBOM: false)
                        cursor.pos = 5
                        do throws(JSONSyntaxError) {
                            let span = try cursor.string()
                            return (span.end, nil)
                        } catch {
                            return (nil, error)
                        }
                    }
                    let label = "\(sequence) at \(offset), tail \(tail.count)"
                    if let error = reference.error {
                        #expect(scanned.error?.offset == error.offset, "\(label)")
                        #expect(scanned.error?.message == error.message, "\(label)")
                    } else if let end = reference.end {
                        #expect(scanned.end == end, "\(label)")
                        let text = Array(bytes[6..<end])
                        #expect(String(validating: text, as: UTF8.self) != nil, "\(label)")
                    } else {
                        #expect(scanned.error?.message == "unterminated string", "\(label)")
                    }
                }
            }
        }
    }

    // MARK: Property keys

    static func schema(_ names: [String]) -> FloorSchema {
        let any = FloorSchema(
            kinds: .any, properties: [], required: [], additional: .any, items: nil, allowed: nil, minimum: nil,
            maximum: nil, description: nil)
        return FloorSchema(
            kinds: .object, properties: names.map { ($0, any) }, required: [], additional: .any, items: nil,
            allowed: nil, minimum: nil, maximum: nil, description: nil)
    }

    /// Names of every length around a word, differing only in their last byte, their first, or by one byte
    /// more or less; each key looked up at the end of its buffer too (fewer than eight bytes after it),
    /// whatever property is tried first.
    @Test func keysAreFoundByTheirWholeName() {
        var names: [String] = []
        for length in 0...19 {
            let stem = String((0..<length).map { Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
            names.append(stem)
            if length > 0 { names.append(String(stem.dropLast()) + "Z") }
        }
        names += ["价格", "价格x", "id", "i\u{7F}"]
        let schema = Self.schema(names)
        let keys = names + ["aZb", "Zbcdefgh", "abcdefgZ", "abcdefghZ", "abcdefghijklmnopqrsZ", "价", "x", "I"]
        for key in keys {
            let reference = names.firstIndex(of: key)
            for atEnd in [false, true] {
                let bytes = Array("\"".utf8) + Array(key.utf8) + Array(atEnd ? "\"".utf8 : "\":1, \"padding\": 0}".utf8)
                bytes.withUnsafeBytes { raw in
                    var cursor = JSONCursor(raw.baseAddress!, count: raw.count, skippingBOM: false)
                    let span = try! cursor.string()
                    for expected in [0, 3, names.count - 1, names.count] {
                        let found = schema.property(span, in: cursor, expected: expected)
                        #expect(found == reference, "\(key) (at the end: \(atEnd), tried first: \(expected))")
                    }
                }
            }
        }
    }

    // MARK: Numbers

    static func strtodValue(_ text: String) -> Double {
        text.withCString { strtod($0, nil) }
    }

    /// Every number a page writes reads as strtod reads it, bit for bit: the fast path's and the others.
    @Test func numbersReadAsStrtodReadsThem() {
        var texts = [
            "0", "-0", "0.0", "-0.0", "1", "-1", "0.1", "0.30000000000000004", "123456789012345", "1234567890123456",
            "999999999999999", "9007199254740993", "1e22", "1e23", "1e-22", "1e-23", "123456789012345e-22",
            "1.7976931348623157e308", "1e400", "-1e400", "5e-324", "1e-400", "0.000001e6", "100e-2", "1E+2",
            "12.50", "464.47", "746.98", "99999999999999999999e-5", "0e999999", "1e0000000000001", "-12.5e-1",
            "0.00000000000000000000000000001", "4.9406564584124654e-324", "2.2250738585072014e-308",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...17, using: &generator)
            var text = String(UInt64.random(in: 0..<UInt64(pow(10, Double(min(digits, 19)))), using: &generator))
            let point = Int.random(in: 0...text.count, using: &generator)
            if point < text.count && point > 0 { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            if Bool.random(using: &generator) { text += "e\(Int.random(in: -30...30, using: &generator))" }
            if Bool.random(using: &generator) { text = "-" + text }
            texts.append(text)
        }
        for text in texts {
            let value = Array(text.utf8).withUnsafeBytes { JSONNumberValue.of($0) }
            #expect(value.bitPattern == Self.strtodValue(text).bitPattern, "\(text)")
        }
    }

    // MARK: Character classes

    /// A class's ASCII bitmap and its shortcut for non-ASCII bytes answer as the scalar-by-scalar rule,
    /// on text that is not valid UTF-8 too (each bad byte reads as U+FFFD).
    @Test func asciiClassesAnswerAsTheScalarRule() {
        let patterns = [
            "[^ \t]", "[ \t]", "[a-z]", "[^a-z]", "[^x]", "[~]", "[^\u{FFFD}]", "[\u{FFFD}]", "[^a\u{4E2D}]",
        ]
        let texts: [[UInt8]] = [
            [], [0x20], [0x20, 0x09], Array("  x".utf8), Array("中".utf8), [0x20, 0xFF], [0xFF], [0xC3], [0x80, 0x20],
            Array(" \t中 ".utf8), Array("~".utf8), [0x7F], Array("a中".utf8), [0xED, 0xA0, 0x80], [0xE4, 0xB8],
        ]
        for pattern in patterns {
            let characterClass = CharacterClass(pattern)!
            for text in texts {
                let fast = text.withUnsafeBytes { characterClass.matches($0) }
                // The rule: some scalar of the text (U+FFFD for a byte that starts no valid sequence) is in the
                // class, or (negated) is not.
                var scalars: [UInt32] = []
                text.withUnsafeBytes { raw in
                    var i = 0
                    while i < raw.count {
                        let (scalar, length) = CharacterClass.scalar(in: raw, at: i)
                        scalars.append(scalar)
                        i += length
                    }
                }
                let members = Self.members(of: pattern)
                let negated = pattern.hasPrefix("[^")
                #expect(fast == scalars.contains { members.contains($0) != negated }, "\(pattern) \(text)")
            }
        }
    }

    /// The scalars a test pattern's class lists (single characters only).
    static func members(of pattern: String) -> Set<UInt32> {
        Set(pattern.unicodeScalars.dropFirst(pattern.hasPrefix("[^") ? 2 : 1).dropLast().map(\.value))
            .union(pattern == "[a-z]" || pattern == "[^a-z]" ? Set((0x61...0x7A).map { UInt32($0) }) : [])
            .subtracting(pattern.contains("a-z") ? [UInt32(UInt8(ascii: "-"))] : [])
    }

    // MARK: Escaped strings

    /// A string with escapes is decoded once for its hash, its schema check, its NULs and its lone
    /// surrogates: the findings are those of the same text written without escapes, a `\uFFFD` or a
    /// written U+FFFD is no lone surrogate, and `\\u0000` (an escaped backslash) is no NUL.
    @Test func escapedStringsAreCheckedAsTheirText() throws {
        let declared = try DeclaredSchema.parse(
            #"{"type":"object","properties":{"type":{"type":"string"},"t":{"type":"string","minLength":3},"#
                + #""p":{"type":"string","pattern":"[^ ]"},"e":{"type":"string","enum":["a\"b","\u00e9"]},"#
                + #""n":{"type":"integer"}}}"#
        ).get()
        let schemas = ["T": declared.floorObject]
        let cases: [(escaped: String, plain: String, lone: Bool, nul: Bool)] = [
            (#""t":"\"x","p":"\u0020","e":"a\"b""#, #""t":"\"x","p":" ","e":"a\"b""#, false, false),
            (#""t":"\u00e9\u00e9","p":"\t","e":"\u00e9""#, #""t":"éé","p":"\t","e":"é""#, false, false),
            (#""t":"\uFFFD\\","e":"\/""#, #""t":"�\\","e":"/""#, false, false),
            (#""t":"�\n","p":"\\u0000""#, #""t":"�\n","p":"\\u0000""#, false, false),
            (#""t":"a\ud800","e":"\udc00\ud83d\ude00""#, #""t":"a�","e":"�😀""#, true, false),
            (#""t":"a\u0000","p":"\ud83d\ude00""#, #""t":"a\u0000","p":"😀""#, false, true),
        ]
        for (escaped, plain, lone, nul) in cases {
            func scanned(_ members: String) throws -> FloorSpec {
                let page = #"{"floors":[{"type":"T","n":1,"# + members + "}]}"
                return try PageScanner.scan(Array(page.utf8)) { schemas[$0] }.floors[0]
            }
            let floor = try scanned(escaped)
            let reference = try scanned(plain)
            #expect(
                floor.findings?.map { "\($0.kind) \($0.path) \($0.message)" }
                    == reference.findings?.map { "\($0.kind) \($0.path) \($0.message)" }, "\(escaped)")
            #expect(floor.signature.whole == reference.signature.whole, "\(escaped)")
            #expect(floor.problems.contains { $0.message.contains("surrogate") } == lone, "\(escaped)")
            #expect(!floor.stringsWithNUL.isEmpty == nul, "\(escaped)")
        }
    }
}
