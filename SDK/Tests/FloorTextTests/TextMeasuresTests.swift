import Testing

@testable import FloorText

/// `TextEngine.measures`, made without a block while the engine keeps none, against the measures of the
/// block `layout` makes for the same arguments: lines, width (a cut line's ellipsis included), height and
/// whether the text was cut, for every kind of text a height calculator measures.
@Suite struct TextMeasuresTests {
    static let texts: [[UInt8]] =
        [
            "无线蓝牙耳机 Pro", "Stainless steel bottle 750ml", "¥199.00", "¥12,999.00", "有机纯牛奶 250ml×12",
            "显示器 Backpack Pro Coffee 4K 750ml RGB 显示器 Backpack Pro Coffee 4K 750ml RGB 显示器 Backpack",
            "a\nb\n\nc", "   ", "", "😀👍🏽 family 👨‍👩‍👧 done", "\"quoted\" words, with punctuation—and dashes…",
            String(repeating: "长", count: 300), String(repeating: "word ", count: 80),
        ].map { Array($0.utf8) } + [[0x61, 0xFF, 0x62, 0xC3], [0xE4, 0xB8]]

    @Test(arguments: [0x100, 0x300, 0x301, 0x400, 0x500] as [UInt32])
    func measuresAreTheBlocksMeasures(style word: UInt32) throws {
        let style = try #require(TypeStyle(style: word))
        let measuring = TextEngine(keepsBlocks: { false })
        let laying = TextEngine()
        var cut = 0
        for text in Self.texts {
            for width in [0, 36, 120, 200, 375, Double.infinity, Double.nan, -5] {
                for maxLines in [0, 1, 2, 3] {
                    let block = text.withUnsafeBytes {
                        laying.layout(utf8: $0, style: style, maxWidth: width, maxLines: maxLines)
                    }
                    let measures = text.withUnsafeBytes {
                        measuring.measures(utf8: $0, style: style, maxWidth: width, maxLines: maxLines)
                    }
                    #expect(
                        measures == TextMeasures(block),
                        "\(String(decoding: text, as: UTF8.self)) at \(width), \(maxLines) lines")
                    if block.truncated { cut += 1 }
                }
            }
        }
        #expect(cut > 20, "texts cut by a line limit, with an ellipsis: \(cut)")
        // Nothing was laid out into a block: the engine that measured kept and cached nothing.
        #expect(measuring.counts.cached == 0)
    }

    @Test func anEngineThatKeepsBlocksMeasuresWithoutOne() throws {
        let style = try #require(TypeStyle(style: 0x300))
        let engine = TextEngine()
        let text = Array("无线蓝牙耳机 Pro Stainless steel bottle".utf8)
        let measures = text.withUnsafeBytes { engine.measures(utf8: $0, style: style, maxWidth: 80, maxLines: 2) }
        let block = text.withUnsafeBytes { engine.layout(utf8: $0, style: style, maxWidth: 80, maxLines: 2) }
        #expect(measures == TextMeasures(block) && measures.truncated)
        // Measured without a block, and nothing kept for the drawing: the block is laid out when asked for.
        #expect(engine.counts.laidOut == 2 && engine.counts.cached == 0, "\(engine.counts)")
        _ = text.withUnsafeBytes { engine.measures(utf8: $0, style: style, maxWidth: 80, maxLines: 2) }
        #expect(engine.counts.laidOut == 3 && engine.counts.cached == 0, "\(engine.counts)")
    }
}
