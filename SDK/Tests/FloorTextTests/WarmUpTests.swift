import Testing

@testable import FloorText

/// `TextEngine.warmUp` opens what the engine needs before its first text: it keeps nothing (no cache entry, no
/// measure kept) and changes no answer, and a second call does nothing.
@Suite struct WarmUpTests {
    static let texts = [
        "Aa 19 ¥9.99 -25%", "中文 测试", "Hello, \u{201C}world\u{201D}! (x) a-b", "Wireless earbuds with a long name",
        "无线蓝牙耳机 Pro 27\" 20000mAh", "¥1,299.00",
    ]
    static let styles: [UInt32] = [0x100, 0x300, 0x301, 0x400, 0x500]

    @Test func keepsNothingAndChangesNoAnswer() {
        let warmed = TextEngine(keepsBlocks: { true })
        warmed.warmUp()
        let afterWarmUp = warmed.counts
        #expect(afterWarmUp.laidOut > 0, "the warm-up lays samples out")
        #expect(afterWarmUp.cached == 0 && afterWarmUp.kept == 0)
        warmed.warmUp()
        #expect(warmed.counts == afterWarmUp, "a second warm-up does nothing")
        let cold = TextEngine(keepsBlocks: { true })
        for style in Self.styles {
            let type = TypeStyle(style: style)!
            for text in Self.texts {
                for width in [40.0, 120, 200, .infinity] {
                    #expect(
                        warmed.layout(text, style: type, maxWidth: width, maxLines: 2)
                            == cold.layout(text, style: type, maxWidth: width, maxLines: 2),
                        "\(text) in style \(style) at \(width)")
                }
            }
        }
        // Its samples were not kept: the first layout of one is laid out, not taken from the cache.
        #expect(warmed.counts.cached == cold.counts.cached)
    }
}
