import Testing

@testable import FloorText

/// A text of plain characters (PlainLines: printable ASCII, ¢ £ ¥, CJK unified ideographs) is laid out
/// straight from its UTF-8, and gives what the general path gives, to the bit: the same lines, the same byte
/// ranges, widths and heights as the same Doubles, the same cut and ellipsis. Two engines, one with the plain
/// path turned off, over the benchmark pages' titles and prices (Benchmarks/Inputs/make_page.py's words and
/// its made-up ones, ProductFeed's price format) and generated texts, at widths that fit, wrap and cut
/// mid-word, one, two and any number of lines, every style in both weights.
@Suite struct PlainLinesTests {
    /// make_page.py's WORDS.
    static let words = [
        "无线蓝牙耳机", "Pro", "保温杯", "750ml", "Stainless", "steel", "运动鞋", "Running", "shoes", "机械键盘", "RGB", "有机",
        "牛奶", "Organic", "milk", "4K", "显示器", "Monitor", "27\"", "充电宝", "20000mAh", "背包", "Backpack", "旅行", "Travel",
        "智能手表", "Smart", "watch", "咖啡豆", "Coffee", "beans", "1kg",
    ]

    /// Titles as make_page.py draws them (3 to 7 words of WORDS, or of those and made-up ones: 3 to 10
    /// lowercase letters, or 2 to 4 ideographs), its floors' other texts, and prices as ProductFeed draws them.
    static func benchmarkTexts(_ random: inout SplitMix) -> [String] {
        var vocabulary = words
        while vocabulary.count < 600 {
            if random.next() % 2 == 0 {
                vocabulary.append(
                    String(
                        (0..<(3 + random.next() % 8)).map { _ in Character(UnicodeScalar(0x61 + random.next() % 26)!) })
                )
            } else {
                vocabulary.append(
                    String(
                        (0..<(2 + random.next() % 3)).map { _ in
                            Character(UnicodeScalar(UInt32(0x4E00 + random.next() % 0x5200))!)
                        }))
            }
        }
        var texts = ["活动 Campaign 0", "频道0", "频道12", "猜你喜欢 For you", "每日更新", "精选 Picks 3", "-34%", "-1%"]
        for n in 0..<1_200 {
            let pool = n % 2 == 0 ? words : vocabulary
            texts.append(
                (0..<(3 + random.next() % 5)).map { _ in pool[random.next() % pool.count] }.joined(separator: " "))
        }
        for _ in 0..<300 {
            let cents = 100 + random.next() % 299_900
            texts.append("¥\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)")
        }
        return texts
    }

    /// Spaces and runs of them, punctuation, digits, ¢ £ ¥, quotation marks, pairs Noto Sans kerns ("AV", "To"),
    /// ligatures ("ff", "fi", "fl"), ideographs, very long words, and a few texts that are not plain.
    static func generatedTexts(_ random: inout SplitMix) -> [String] {
        let alphabet = Array("aAfilTVWoy.,:;!?-/()#%&*+=_@'\"0123456789¢£¥ 中文机械键盘龥一".unicodeScalars)
        var texts = [
            "", " ", "   ", "a", "中", "\"", "  leading", "trailing  ", "a  b   c", "AVATAR To Wa Ty. LT VA",
            "office fluffy fi fl ffi ffl", "Coffee beans", String(repeating: "a", count: 90),
            String(repeating: "中", count: 45), String(repeating: "Wm", count: 40) + " x", "27\" 显示器 \"Pro\"",
            "x \"中\" y", "¥464.47 ¥1,081.08", "£12 ¢5", "a-b c/d e(f) g!", "中文, 中文。", "é", "emoji 😀", "line\nfeed",
            "tab\there", "かな", "Ａ",
        ]
        for _ in 0..<800 {
            var text = String.UnicodeScalarView()
            for _ in 0..<(1 + random.next() % 40) { text.append(alphabet[random.next() % alphabet.count]) }
            texts.append(String(text))
        }
        return texts
    }

    static let styles: [TypeStyle] = [0x100, 0x200, 0x300, 0x400, 0x500].flatMap {
        [TypeStyle(style: $0)!, TypeStyle(style: $0 | TypeStyle.boldBit)!]
    }
    static let widths: [Double] = [0, 1, 9.5, 40, 80, 120, 171.5, 343, .infinity, -.infinity, .nan]
    static let lineLimits = [0, 1, 2, 3]

    /// What differs between the two engines' answers for one layout, nil when nothing does.
    func difference(
        _ text: String, _ style: TypeStyle, _ width: Double, _ limit: Int, plain: TextEngine, general: TextEngine
    )
        -> String?
    {
        let a = plain.layout(text, style: style, maxWidth: width, maxLines: limit)
        let b = general.layout(text, style: style, maxWidth: width, maxLines: limit)
        let place = "\"\(text)\" style \(style.number | UInt32(style.weight.rawValue)) width \(width) lines \(limit)"
        if let different = PlainBlocksTests.difference(a, b) { return "\(place): \(different)" }
        var bytes = Array(text.utf8)
        let (measuredA, measuredB) = bytes.withUnsafeMutableBytes { raw in
            (
                plain.measures(utf8: UnsafeRawBufferPointer(raw), style: style, maxWidth: width, maxLines: limit),
                general.measures(utf8: UnsafeRawBufferPointer(raw), style: style, maxWidth: width, maxLines: limit)
            )
        }
        guard measuredA.lines == measuredB.lines, measuredA.truncated == measuredB.truncated,
            measuredA.width.bitPattern == measuredB.width.bitPattern,
            measuredA.height.bitPattern == measuredB.height.bitPattern
        else { return "\(place): measures \(measuredA) against \(measuredB)" }
        return nil
    }

    @Test func plainTextsLayOutAsTheGeneralPathToTheBit() throws {
        // Blocks kept by neither engine's cache, so `measures` breaks lines too (a one-shot render's path).
        let plain = TextEngine(keepsBlocks: { false })
        let general = TextEngine(keepsBlocks: { false }, plainPath: false)
        try #require(plain.problem == nil, "the font set (Scripts/setup)")
        var random = SplitMix(seed: 27)
        let texts = Self.benchmarkTexts(&random) + Self.generatedTexts(&random)
        var differences: [String] = []
        var compared = 0
        for (n, text) in texts.enumerated() {
            // Every style at a width and limit of the text's own; every width and limit in one style.
            for style in Self.styles {
                let width = Self.widths[random.next() % Self.widths.count]
                let limit = Self.lineLimits[random.next() % Self.lineLimits.count]
                if let difference = difference(text, style, width, limit, plain: plain, general: general) {
                    differences.append(difference)
                }
                compared += 1
            }
            let style = Self.styles[n % Self.styles.count]
            for width in Self.widths {
                for limit in Self.lineLimits {
                    if let difference = difference(text, style, width, limit, plain: plain, general: general) {
                        differences.append(difference)
                    }
                    compared += 1
                }
            }
        }
        #expect(differences.isEmpty, "\(differences.count) of \(compared): \(differences.prefix(10))")
        #expect(general.counts.plain == 0)
        // Most of the layouts went the plain way (the rest: texts not plain, or breaking at punctuation).
        #expect(plain.counts.plain > plain.counts.laidOut / 2, "\(plain.counts)")
    }

    @Test func everyTitleAndPriceOfTheBenchmarkPagesTakesThePlainPath() {
        let engine = TextEngine(keepsBlocks: { false })
        var random = SplitMix(seed: 5)
        let texts = Self.benchmarkTexts(&random)
        let body = TypeStyle(style: 0x300)!
        for text in texts {
            var bytes = Array(text.utf8)
            _ = bytes.withUnsafeMutableBytes {
                engine.measures(utf8: UnsafeRawBufferPointer($0), style: body, maxWidth: 163.5, maxLines: 2)
            }
        }
        #expect(engine.counts.plain == texts.count, "\(engine.counts)")
    }
}
