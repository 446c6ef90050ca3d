import Testing

@testable import FloorText

/// Whatever a plugin passes, a layout returns, in time proportional to at most `TextLimits.maxBytes`
/// (ARCHITECTURE.md, "Trust model"; docs/ABI.md, "Text layout").
@Suite struct BadTextInputTests {
    let engine = TextEngine.shared
    let body = TypeStyle(style: 0x300)!

    @Test func invalidUTF8IsMeasuredAsReplacementCharacters() {
        let bytes: [UInt8] = [0x41, 0xFF, 0xC3, 0x28, 0xED, 0xA0, 0x80, 0x42]
        let block = bytes.withUnsafeBytes { engine.layout(utf8: $0, style: body, maxWidth: 300, maxLines: 0) }
        #expect(block.lines.count == 1)
        #expect(block.lines[0].text.hasPrefix("A\u{FFFD}"))
        #expect(block.width > 0 && block.width.isFinite)
    }

    @Test func nulIsPartOfTheText() {
        let bytes: [UInt8] = [0x61, 0x00, 0x62]
        let block = bytes.withUnsafeBytes { engine.layout(utf8: $0, style: body, maxWidth: 300, maxLines: 0) }
        #expect(block.lines.map(\.text) == ["a\u{0}b"])
    }

    @Test(arguments: [Double.nan, -1, -Double.infinity, 0])
    func anUnusableWidthPutsEachGraphemeOnALine(width: Double) {
        let block = engine.layout("ab cd", style: body, maxWidth: width)
        #expect(block.lines.map(\.text) == ["a", "b", "c", "d"])
    }

    @Test func anInfiniteWidthNeverWraps() {
        let block = engine.layout(String(repeating: "word ", count: 500), style: body, maxWidth: .infinity)
        #expect(block.lines.count == 1)
    }

    @Test func aHugeTextIsMeasuredUpToTheLimit() {
        let huge = String(repeating: "a", count: TextLimits.maxBytes * 2)
        let block = engine.layout(huge, style: body, maxWidth: .infinity, maxLines: 0)
        let limit = engine.layout(String(repeating: "a", count: TextLimits.maxBytes), style: body, maxWidth: .infinity)
        #expect(block.width == limit.width)
    }

    @Test func aHugeLineLimitIsNoLimit() {
        let block = engine.layout("one two three", style: body, maxWidth: 1, maxLines: Int(UInt32.max))
        #expect(block.lines.count > 3 && !block.truncated)
    }

    @Test func aLimitOfOneLineOnAHugeTextStopsEarly() {
        let huge = String(repeating: "word ", count: 200_000)
        let block = engine.layout(huge, style: body, maxWidth: 100, maxLines: 1)
        #expect(block.lines.count == 1 && block.truncated && block.lines[0].width <= 100)
    }
}
