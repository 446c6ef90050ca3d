import Testing

@testable import HostContract

// Unit tests for `DisplayWidth` (HostContract): the terminal columns of Unicode text, which the text
// renderer, the canvas's measure_text (TextMeasure) and the test kit all count with. Moved from the root
// package's TextGridTests, which keeps TextGrid's own tests.

struct DisplayWidthTests {
    /// The Basic Multilingual Plane is answered from a table filled from the range tables: every scalar of
    /// it as the tables say (zero width winning where they overlap, as `of` looks it up first).
    @Test func theBasicPlaneTableAnswersAsTheRangeTables() {
        var differing: [String] = []
        for value in UInt32(0)..<0x10000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if DisplayWidth.of(scalar) != DisplayWidth.searched(value) { differing.append(String(value, radix: 16)) }
        }
        #expect(differing.isEmpty, "U+\(differing.prefix(10))")
    }

    /// Every printable ASCII scalar is one column.
    @Test func printableASCIIIsOneColumn() {
        for value in UInt32(0x20)...0x7E {
            #expect(DisplayWidth.of(Unicode.Scalar(value)!) == 1, "U+\(String(value, radix: 16))")
        }
        #expect(DisplayWidth.of("Hello, world!") == 13)
    }

    /// C0/C1 controls and DEL take no column.
    @Test func controlsAreZeroWidth() {
        for scalar in ["\u{0}", "\t", "\n", "\r", "\u{1B}", "\u{7F}", "\u{85}", "\u{9F}"] as [Unicode.Scalar] {
            #expect(DisplayWidth.of(scalar) == 0, "\(scalar.escaped(asASCII: true))")
        }
        #expect(DisplayWidth.of("\u{1B}[31mred") == 7)  // ESC is 0, "[31mred" is 7
    }

    /// CJK ideographs (BMP, Ext A, plane 2), kana, Hangul syllables, CJK punctuation: two columns.
    @Test func cjkIsTwoColumns() {
        let wide: [Unicode.Scalar] = ["中", "楼", "\u{3400}", "\u{20000}", "あ", "カ", "한", "\u{3000}", "。", "「", "ㄅ"]
        for scalar in wide {
            #expect(DisplayWidth.of(scalar) == 2, "\(scalar)")
        }
        #expect(DisplayWidth.of("楼层商品") == 8)
    }

    /// Fullwidth forms are two columns; halfwidth katakana stay one.
    @Test func fullwidthAndHalfwidthForms() {
        #expect(DisplayWidth.of("ＡＢＣ") == 6)
        #expect(DisplayWidth.of("１！") == 4)
        #expect(DisplayWidth.of("￥") == 2)
        #expect(DisplayWidth.of("ｱｲｳ") == 3)
    }

    /// Combining and enclosing marks take no column; a base plus its marks is the base's width.
    @Test func combiningMarksAreZeroWidth() {
        #expect(DisplayWidth.of("\u{301}") == 0)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("é") == 1)
        #expect(DisplayWidth.of("a\u{20DD}") == 1)
        #expect(DisplayWidth.of("中\u{3099}") == 2)
    }

    /// Conjoining Hangul: a leading consonant is wide, the vowel and final that join it are zero width.
    @Test func conjoiningHangulIsOneWideSyllable() {
        #expect(DisplayWidth.of("\u{1112}\u{1161}\u{11AB}") == 2)
        #expect(DisplayWidth.of("\u{D7B0}") == 0)
    }

    /// Emoji with default emoji presentation are two columns; text-presentation ones stay one (a variation
    /// selector does not change that); ZWJ sequences are summed scalar by scalar (documented).
    @Test func emojiWidths() {
        #expect(DisplayWidth.of("😀") == 2)
        #expect(DisplayWidth.of("🚀") == 2)
        #expect(DisplayWidth.of("⌚") == 2)
        #expect(DisplayWidth.of("❤") == 1)
        #expect(DisplayWidth.of("❤\u{FE0F}") == 1)
        #expect(DisplayWidth.of("👨\u{200D}👩\u{200D}👧") == 6)
        #expect(DisplayWidth.of("🇨🇳") == 2)  // two regional indicators, one column each
    }

    /// Emoji added after Unicode 14 inside the merged gaps of U+1F300..U+1FAFF are wide too.
    @Test func laterEmojiInsideTheTableAreWide() {
        for scalar in ["\u{1F6DC}", "\u{1FA75}", "\u{1FAE8}", "\u{1FA89}"] as [Unicode.Scalar] {
            #expect(DisplayWidth.of(scalar) == 2, "U+\(String(scalar.value, radix: 16, uppercase: true))")
        }
    }

    /// The table's comment promises that emoji added after Unicode 14 within U+1F300..U+1FAFF are wide, but
    /// U+1FAF7 and U+1FAF8 (Unicode 15's pushing hands) lie after the last range, 0x1FA70...0x1FAF6.
    @Test func emojiAfterTheLastTableRangeAreWide() {
        #expect(DisplayWidth.of("\u{1FAF7}") == 2)
        #expect(DisplayWidth.of("\u{1FAF8}") == 2)
    }

    /// Zero-width space, joiners, word joiner, BOM, bidi controls, variation selectors: no column.
    /// The soft hyphen is the documented exception: terminals show it.
    @Test func formatCharactersAreZeroWidth() {
        let zero: [Unicode.Scalar] = [
            "\u{200B}", "\u{200C}", "\u{200D}", "\u{200E}", "\u{2028}", "\u{2060}",
            "\u{202E}", "\u{FEFF}", "\u{FE0F}", "\u{E0100}",
        ]
        for scalar in zero {
            #expect(DisplayWidth.of(scalar) == 0, "U+\(String(scalar.value, radix: 16, uppercase: true))")
        }
        #expect(DisplayWidth.of("\u{AD}") == 1)
    }

    /// East Asian Ambiguous characters are narrow (a terminal outside a CJK legacy locale).
    @Test func ambiguousCharactersAreNarrow() {
        #expect(DisplayWidth.of("…") == 1)
        #expect(DisplayWidth.of("─│┌┐└┘") == 6)
        #expect(DisplayWidth.of("αЖ①") == 3)
    }

    /// A string's width is the sum of its scalars' widths; a substring measures the same way.
    @Test func stringWidthIsTheSumOfScalars() {
        let text = "ab中文😀e\u{301}\u{200B}"
        #expect(DisplayWidth.of(text) == 2 + 4 + 2 + 1)
        #expect(DisplayWidth.of(text.dropFirst(2)) == 4 + 2 + 1)
        #expect(DisplayWidth.of("") == 0)
    }

    /// Cross-check against the standard library's Unicode data for every scalar assigned by Unicode 14
    /// (the tables' version): marks (Mn, Me), formats, controls and separators are exactly the zero-width
    /// ones, apart from the soft hyphen and the conjoining Hangul jamo.
    @Test func zeroWidthMatchesGeneralCategory() {
        var mismatches: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), let age = scalar.properties.age,
                (age.major, age.minor) <= (14, 0)
            else { continue }
            // U+1171E was Mn in Unicode 14 and is Mc since Unicode 15; the table follows 14.
            if value == 0x1171E { continue }
            let shouldBeZero: Bool
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
                shouldBeZero = value != 0xAD
            default:
                shouldBeZero = (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value)
            }
            if shouldBeZero != (DisplayWidth.of(scalar) == 0) {
                mismatches.append("U+\(String(value, radix: 16, uppercase: true))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
    }

    /// Every scalar with default emoji presentation (as of Unicode 14) is two columns, except the
    /// regional indicators (East Asian Width N; a flag is two of them).
    @Test func emojiPresentationIsWide() {
        var narrow: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.isEmojiPresentation,
                let age = scalar.properties.age, (age.major, age.minor) <= (14, 0),
                !(0x1F1E6...0x1F1FF).contains(value)
            else { continue }
            if DisplayWidth.of(scalar) != 2 { narrow.append("U+\(String(value, radix: 16, uppercase: true))") }
        }
        #expect(narrow.isEmpty, "\(narrow)")
    }
}
