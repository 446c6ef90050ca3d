import CPattern
import FloorRuntime
import Testing

/// A schema pattern that is one character class is matched without ICU (CharacterClass); it must answer
/// exactly as ICU does, for every text: each pattern here against many texts, both ways.
struct CharacterClassTests {
    static let patterns = [
        "[^ \t\u{A0}\u{1680}\u{2000}-\u{200A}\u{202F}\u{205F}\u{3000}]",  // FloorKit's .notBlank
        "[a-z]", "[^a-z0-9]", "[¥￥]", "[^x]", "[ -~]", "[\u{1F600}-\u{1F64F}]", "[^\u{4E00}-\u{9FFF}]",
    ]

    static let texts = [
        "", " ", "\t \u{3000}", "a", "Z", "hello world", "  x  ", "¥199", "￥", "价格 Price", "显示器",
        "😀", "a😀b", "\u{2003}\u{2009}", "\u{200B}", "~", "\u{7F}", "é", "e\u{301}", "\u{10FFFF}", "0123",
    ]

    /// ICU's answer for `pattern` somewhere in `text`.
    static func icu(_ pattern: String, _ text: String) -> Bool {
        var pattern = pattern
        let compiled = pattern.withUTF8 { p in
            p.withMemoryRebound(to: CChar.self) { floor_pattern_compile($0.baseAddress, Int64($0.count)) }
        }!
        defer { floor_pattern_free(compiled) }
        var text = text
        return text.withUTF8 { t in
            t.withMemoryRebound(to: CChar.self) { floor_pattern_find(compiled, $0.baseAddress, Int64($0.count)) == 1 }
        }
    }

    @Test(arguments: patterns)
    func answersAsICUDoes(pattern: String) throws {
        let fast = try #require(CharacterClass(pattern), "\(pattern) is one character class")
        for text in Self.texts {
            var copy = text
            let answer = copy.withUTF8 { fast.matches(UnsafeRawBufferPointer($0)) }
            #expect(answer == Self.icu(pattern, text), "\(pattern) in \(text.debugDescription)")
        }
    }

    /// Patterns whose meaning needs more than literal characters and ranges stay with ICU.
    @Test(arguments: [
        "[a-z]+", "[\\s]", "[[:alpha:]]", "[a-]", "[-a]", "[a&&b]", "[\\p{L}]", "[z-a]", "^[a]", "[]", "[^]", "[a]b",
    ])
    func anythingElseIsLeftToICU(pattern: String) {
        #expect(CharacterClass(pattern) == nil)
    }

    @Test func aLengthCountsUnicodeScalars() {
        for text in Self.texts {
            var copy = text
            let count = copy.withUTF8 { CharacterClass.scalarCount(UnsafeRawBufferPointer($0)) }
            #expect(count == text.unicodeScalars.count, "\(text.debugDescription)")
        }
    }
}
