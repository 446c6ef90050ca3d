import Testing

@testable import FloorText

/// The text engine on the pinned font set (Fonts.lock): real advances, per-character fallback, ICU's
/// breaks, greedy filling and the line limit (docs/ABI.md, "Text layout").
@Suite struct TextEngineTests {
    let engine = TextEngine.shared
    let caption = TypeStyle(style: 0x100)!
    let body = TypeStyle(style: 0x300)!
    let title = TypeStyle(style: 0x500)!

    @Test func theFontSetOpens() {
        #expect(engine.problem == nil)
    }

    @Test func widthsScaleWithThePointSizeAndBoldIsWider() {
        let text = "Wireless Earbuds Pro"
        let small = engine.layout(text, style: caption, maxWidth: .infinity).width
        let large = engine.layout(text, style: body, maxWidth: .infinity).width
        #expect(small > 60 && small < 200)
        // Unhinted advances scale linearly: 12 pt is exactly 12/15 of 15 pt.
        #expect(abs(small / large - 12.0 / 15.0) < 1e-9)
        let bold = engine.layout(text, style: TypeStyle(style: 0x301)!, maxWidth: .infinity).width
        #expect(bold > large)
    }

    @Test func eachCharacterGoesToTheFaceThatHasIt() {
        // Noto Sans CJK's ideographs are one em wide; Noto Color Emoji's glyphs 2550/2048 em.
        #expect(abs(engine.layout("日", style: body, maxWidth: .infinity).width - 15) < 1e-9)
        #expect(abs(engine.layout("😀", style: body, maxWidth: .infinity).width - 15 * 2550 / 2048) < 1e-6)
        let mixed = engine.layout("a日😀", style: body, maxWidth: .infinity).width
        let parts = ["a", "日", "😀"].map { engine.layout($0, style: body, maxWidth: .infinity).width }
        #expect(abs(mixed - parts.reduce(0, +)) < 1e-9)
    }

    @Test func latinWrapsAtSpacesWithinTheWidth() {
        let text = "The quick brown fox jumps over the lazy dog and keeps running far away"
        let block = engine.layout(text, style: body, maxWidth: 120)
        #expect(block.lines.count >= 4)
        #expect(block.lines.allSatisfy { $0.width <= 120 })
        #expect(block.lines.map(\.text).joined(separator: " ") == text)
        #expect(block.height == Double(block.lines.count) * 20)
        #expect(!block.truncated)
        // Greedy: the next line's first word would not have fitted on the line before.
        for (line, next) in zip(block.lines, block.lines.dropFirst()) {
            let word = String(next.text.split(separator: " ").first!)
            #expect(engine.layout(line.text + " " + word, style: body, maxWidth: .infinity).width > 120)
        }
    }

    @Test func cjkBreaksBetweenCharactersButNoLineStartsWithClosingPunctuation() {
        let text = "東京の天気は晴れです。明日は雨が降るでしょう、傘を持って行きましょう。"
        for width in [45.0, 60, 75, 90, 105] {
            let block = engine.layout(text, style: body, maxWidth: width)
            #expect(block.lines.map(\.text).joined() == text)
            for line in block.lines.dropFirst() {
                #expect(!"。、）」".contains(line.text.first!), "width \(width): \(block.lines.map(\.text))")
            }
        }
        let four = engine.layout("東京の天気", style: body, maxWidth: 60)
        #expect(four.lines.map(\.text) == ["東京の天", "気"])
    }

    @Test func aWordWiderThanTheLineBreaksBetweenGraphemes() {
        let block = engine.layout("Supercalifragilisticexpialidocious", style: body, maxWidth: 50)
        #expect(block.lines.count > 3)
        #expect(block.lines.allSatisfy { $0.width <= 50 })
        #expect(block.lines.map(\.text).joined() == "Supercalifragilisticexpialidocious")
    }

    @Test func aLineLimitCutsTheLastLineWithAnEllipsis() {
        let text = "The quick brown fox jumps over the lazy dog and keeps running far away"
        let block = engine.layout(text, style: body, maxWidth: 120, maxLines: 2)
        #expect(block.lines.count == 2)
        #expect(block.truncated)
        #expect(block.lines[1].text.hasSuffix("\u{2026}"))
        #expect(block.lines[1].width <= 120)
        #expect(block.height == 40)
        let fits = engine.layout("Short", style: body, maxWidth: 120, maxLines: 2)
        #expect(!fits.truncated && fits.lines.map(\.text) == ["Short"])
    }

    @Test func lineFeedsEndLines() {
        let block = engine.layout("one\ntwo\n\nfour", style: caption, maxWidth: 300)
        #expect(block.lines.map(\.text) == ["one", "two", "", "four"])
        #expect(block.height == 64)
    }

    @Test func anUnchangedStringComesFromTheCache() {
        let text = "cached \(UInt64.random(in: 0...UInt64.max))"
        let before = engine.counts
        let first = engine.layout(text, style: title, maxWidth: 200, maxLines: 2)
        let second = engine.layout(text, style: title, maxWidth: 200, maxLines: 2)
        let after = engine.counts
        #expect(first == second)
        #expect(after.laidOut - before.laidOut >= 1)
        #expect(after.cached - before.cached >= 1)
    }

    @Test func emptyTextHasNoLines() {
        let block = engine.layout("", style: body, maxWidth: 100)
        #expect(block.lines.isEmpty && block.height == 0 && block.width == 0)
    }
}
