import Dispatch
import Synchronization
import Testing

@testable import FloorText

/// The block a drawing gets for a text of plain characters is made straight from PlainLines' lines, its spans
/// and bytes in one allocation (`LaidOutText`), since height calculators measure without blocks
/// (`TextEngine.measures`): field by field the general path's block, on the benchmark pages' texts, cut texts
/// with their ellipsis, CJK, and a text longer than `TextLimits.maxBytes`; a block drawn once outlives the
/// layouts after it; and two threads calling the engine at once get what one thread gets.
@Suite struct PlainBlocksTests {
    static let styles = PlainLinesTests.styles
    static let widths: [Double] = [0, 9.5, 40, 120, 171.5, 251, 343, .infinity]
    static let limits = [0, 1, 2, 3]

    /// Every field a drawing or a height reads, compared to the bit; nil when all agree.
    static func difference(_ a: TextBlock, _ b: TextBlock) -> String? {
        guard a.lineCount == b.lineCount, a.truncated == b.truncated, a.lineHeight == b.lineHeight,
            a.width.bitPattern == b.width.bitPattern, a.height.bitPattern == b.height.bitPattern
        else {
            return
                "\(a.lineCount) lines, cut \(a.truncated), \(a.width) against \(b.lineCount), \(b.truncated), \(b.width)"
        }
        for i in 0..<a.lineCount {
            var bytesA: [UInt8] = []
            var bytesB: [UInt8] = []
            a.withLineUTF8(i) { bytesA = Array($0) }
            b.withLineUTF8(i) { bytesB = Array($0) }
            guard bytesA == bytesB, a.lineWidth(i).bitPattern == b.lineWidth(i).bitPattern else {
                return "line \(i): \(a.lines[i]) against \(b.lines[i])"
            }
        }
        return a.lines == b.lines ? nil : "lines \(a.lines) against \(b.lines)"
    }

    /// The plain engine's block and measures against the general path's, for `text` at `width` and `limit`.
    static func compare(
        _ text: [UInt8], _ style: TypeStyle, _ width: Double, _ limit: Int, plain: TextEngine, general: TextEngine
    ) -> String? {
        text.withUnsafeBytes { bytes in
            let place = "\"\(String(decoding: text.prefix(80), as: UTF8.self))\" \(style.name) at \(width), \(limit)"
            let block = plain.layout(utf8: bytes, style: style, maxWidth: width, maxLines: limit)
            let expected = general.layout(utf8: bytes, style: style, maxWidth: width, maxLines: limit)
            if let difference = difference(block, expected) { return "\(place): \(difference)" }
            let measures = plain.measures(utf8: bytes, style: style, maxWidth: width, maxLines: limit)
            guard measures == TextMeasures(block) else { return "\(place): measures \(measures) against the block's" }
            return nil
        }
    }

    static let cjk = [
        "无线蓝牙耳机", "机械键盘 RGB 背包 旅行 智能手表 咖啡豆 保温杯 显示器 充电宝 运动鞋 有机 牛奶",
        String(repeating: "中文", count: 40), "27\" 显示器 \"Pro\" ¥1,299.00", "龥一丁七万丈三上下不与",
    ]

    @Test func aPlainBlockIsTheGeneralPathsBlockFieldByField() throws {
        let plain = TextEngine(keepsBlocks: { false })
        let general = TextEngine(keepsBlocks: { false }, plainPath: false)
        try #require(plain.problem == nil, "the font set (Scripts/setup)")
        var random = SplitMix(seed: 41)
        let texts =
            (PlainLinesTests.benchmarkTexts(&random) + PlainLinesTests.generatedTexts(&random) + Self.cjk).map {
                Array($0.utf8)
            }
        var differences: [String] = []
        var cut = 0
        for (n, text) in texts.enumerated() {
            let style = Self.styles[n % Self.styles.count]
            for width in Self.widths {
                let limit = Self.limits[random.next() % Self.limits.count]
                if let difference = Self.compare(text, style, width, limit, plain: plain, general: general) {
                    differences.append(difference)
                }
                let block = text.withUnsafeBytes {
                    plain.layout(utf8: $0, style: style, maxWidth: width, maxLines: limit)
                }
                if block.truncated { cut += 1 }
            }
        }
        #expect(differences.isEmpty, "\(differences.count): \(differences.prefix(8))")
        // Cut texts (their last line ends in the ellipsis) among them, and most went the plain way.
        #expect(cut > 500, "\(cut)")
        #expect(plain.counts.plain > plain.counts.laidOut / 2, "\(plain.counts)")
    }

    @Test func aCutCJKTextEndsInTheEllipsisWithinTheWidth() {
        let engine = TextEngine(keepsBlocks: { false })
        let general = TextEngine(keepsBlocks: { false }, plainPath: false)
        let text = Array(String(repeating: "机械键盘", count: 30).utf8)
        let before = engine.counts.plain
        let block = text.withUnsafeBytes { engine.layout(utf8: $0, style: Self.styles[4], maxWidth: 200, maxLines: 2) }
        #expect(engine.counts.plain == before + 1)
        #expect(block.lineCount == 2 && block.truncated)
        #expect(block.lines[1].text.hasSuffix("\u{2026}") && block.lineWidth(1) <= 200)
        #expect(Self.compare(text, Self.styles[4], 200, 2, plain: engine, general: general) == nil)
    }

    /// Past `TextLimits.maxBytes` nothing is read: the block holds the first 1 MiB's lines, on the plain path
    /// when the cut falls between characters, on the general path (the cut character as U+FFFD) when it does
    /// not, the same as the general path's either way.
    @Test(arguments: ["plain words ", "中文 "])
    func aTextOverTheLimitIsLaidOutAsItsFirstMebibyte(unit: String) {
        let plain = TextEngine(keepsBlocks: { false })
        let general = TextEngine(keepsBlocks: { false }, plainPath: false)
        let count = TextLimits.maxBytes / unit.utf8.count + 2
        let text = Array(String(repeating: unit, count: count).utf8)
        #expect(text.count > TextLimits.maxBytes)
        #expect(Self.compare(text, Self.styles[4], .infinity, 0, plain: plain, general: general) == nil)
        let block = text.withUnsafeBytes {
            plain.layout(utf8: $0, style: Self.styles[4], maxWidth: .infinity, maxLines: 0)
        }
        var shown: [UInt8] = []
        block.withLineUTF8(0) { shown = Array($0) }
        #expect(block.lineCount == 1)
        if unit.utf8.count == unit.count {
            // ASCII is cut between characters: the plain path took it, and no byte past the limit is shown.
            #expect(plain.counts.plain > 0 && shown.count <= TextLimits.maxBytes)
        } else {
            // "文" cut after its first byte: U+FFFD, on the general path.
            #expect(plain.counts.plain == 0 && shown.suffix(3) == [0xEF, 0xBF, 0xBD])
        }
    }

    @Test func aBlockDrawnOnceOutlivesTheLayoutsAfterIt() {
        let engine = TextEngine(keepsBlocks: { false })
        let fresh = TextEngine(keepsBlocks: { false })
        let style = Self.styles[4]
        let texts = ["显示器 Backpack Pro Coffee 4K 750ml RGB", "¥1144.14", "咖啡豆 shoes shoes 无线蓝牙耳机", "¥19.90"]
        let blocks = texts.map { engine.layout($0, style: style, maxWidth: 251, maxLines: 2) }
        for (text, block) in zip(texts, blocks) {
            #expect(Self.difference(block, fresh.layout(text, style: style, maxWidth: 251, maxLines: 2)) == nil)
        }
        // The last one is found again (a card measures the price it drew); an earlier one is laid out again.
        let laidOut = engine.counts.laidOut
        var last = Array(texts[3].utf8)
        _ = last.withUnsafeMutableBytes {
            engine.layout(utf8: UnsafeRawBufferPointer($0), style: style, maxWidth: 251, maxLines: 2)
        }
        #expect(engine.counts.laidOut == laidOut && engine.counts.cached == 1)
        _ = engine.layout(texts[0], style: style, maxWidth: 251, maxLines: 2)
        #expect(engine.counts.laidOut == laidOut + 1)
    }

    /// Heights on one thread and drawings on another (the text preview's writer may lay out what it draws),
    /// each answer what the engine gives on one thread.
    @Test func twoThreadsGetWhatOneThreadGets() {
        var random = SplitMix(seed: 8)
        let texts =
            PlainLinesTests.benchmarkTexts(&random).prefix(600).map { Array($0.utf8) } + Self.cjk.map { Array($0.utf8) }
        let style = Self.styles[4]
        let alone = TextEngine(keepsBlocks: { false })
        let measures = texts.map { text in
            text.withUnsafeBytes { alone.measures(utf8: $0, style: style, maxWidth: 171.5, maxLines: 2) }
        }
        let blocks = texts.map { text in
            text.withUnsafeBytes { alone.layout(utf8: $0, style: style, maxWidth: 171.5, maxLines: 2) }
        }
        let shared = TextEngine(keepsBlocks: { false })
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            var wrong = 0
            for _ in 0..<4 {
                for (k, text) in texts.enumerated() {
                    text.withUnsafeBytes { bytes in
                        if thread == 0 {
                            let got = shared.measures(utf8: bytes, style: style, maxWidth: 171.5, maxLines: 2)
                            if got != measures[k] { wrong += 1 }
                        } else {
                            let got = shared.layout(
                                utf8: bytes, style: style, maxWidth: 171.5, maxLines: 2)
                            if Self.difference(got, blocks[k]) != nil { wrong += 1 }
                        }
                    }
                }
            }
            mismatches.withLock { $0 += wrong }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }

    /// The text preview's writer lays prices out with `TextEngine.second` while the drawing's thread measures
    /// heights with `shared`: the second engine's blocks are the shared engine's, field by field, while both
    /// are in use at once.
    @Test func theSecondEngineLaysTextsOutAsTheSharedOneDoes() throws {
        var random = SplitMix(seed: 9)
        let texts =
            PlainLinesTests.benchmarkTexts(&random).prefix(600).map { Array($0.utf8) } + Self.cjk.map { Array($0.utf8) }
        let style = Self.styles[4]
        try #require(TextEngine.second.problem == nil, "the font set (Scripts/setup)")
        let differences = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for text in texts {
                text.withUnsafeBytes { bytes in
                    if thread == 0 {
                        _ = TextEngine.shared.measures(utf8: bytes, style: style, maxWidth: 171.5, maxLines: 2)
                    } else {
                        let second = TextEngine.second.layoutAfresh(
                            utf8: bytes, style: style, maxWidth: 171.5, maxLines: 2)
                        let shared = TextEngine.shared.layoutAfresh(
                            utf8: bytes, style: style, maxWidth: 171.5, maxLines: 2)
                        if let difference = Self.difference(second, shared) {
                            differences.withLock { $0.append(difference) }
                        }
                    }
                }
            }
        }
        #expect(differences.withLock { $0 }.isEmpty)
    }
}
