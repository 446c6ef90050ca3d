import Testing

@testable import FloorText

/// The line break opportunities of a text of letters, digits, spaces, quotation marks and ideographs are
/// found without ICU (BreakIterators.plainOpportunities) and are ICU's own, for seeded random texts of those
/// characters and for product titles; any other text goes to ICU.
@Suite struct BreakIteratorsTests {
    func both(_ text: String, _ breaks: BreakIterators) -> (plain: [Int]?, icu: [Int], icuHard: [Bool]) {
        let units = Array(text.utf16)
        return units.withUnsafeBufferPointer { text in
            let icu = breaks.opportunitiesByICU(text)
            let icuOffsets = icu.map(\.offset)
            // Every boundary but the text's end (whose status does not change the lines: GreedyLines ends
            // the last line there either way).
            let icuHard = icu.dropLast().map(\.hard)
            let plain = breaks.plainOpportunities(text) ? breaks.opportunities(text).map(\.offset) : nil
            return (plain, icuOffsets, icuHard)
        }
    }

    @Test func plainTextsBreakWhereICUBreaks() throws {
        let breaks = BreakIterators()
        let alphabet = Array("aZ5 \"中文机".unicodeScalars)
        var random = SplitMix(seed: 14)
        var texts = [
            "显示器 Backpack Pro Coffee 4K 750ml RGB", "27\" 20000mAh 牛奶 Organic", "Pro 旅行 Smart RGB 机械键盘",
            "a\"b\" c", "中\"文\" 中", "ab  cd  ", "x", "中", "\"", "abc\"", "中 \"a\" 文",
        ]
        for _ in 0..<5_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<(1 + random.next() % 16) { text.append(alphabet[random.next() % alphabet.count]) }
            texts.append(String(text))
        }
        var checked = 0
        for text in texts {
            let (plain, icu, icuHard) = both(text, breaks)
            #expect(!icuHard.contains(true), "\(text): no mandatory break")
            guard let plain else {
                #expect(text.first == " ", "only a text starting with a space goes to ICU: \(text)")
                continue
            }
            checked += 1
            #expect(plain == icu, "\(text)")
        }
        #expect(checked > 4_000)
    }

    @Test func otherTextsGoToICU() {
        let breaks = BreakIterators()
        for text in [" leading space", "dash-ed", "comma, then", "line\nfeed", "かな", "é", "emoji 😀", "(x)", ""] {
            let units = Array(text.utf16)
            #expect(!units.withUnsafeBufferPointer { breaks.plainOpportunities($0) }, "\(text)")
        }
    }
}
