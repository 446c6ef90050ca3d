import Synchronization
import Testing

@testable import FloorText

/// A block of the engine keeps its lines as byte ranges of the text it laid out, not as Strings
/// (TextBlock.swift): each line read from its bytes is the line `lines` makes, on real text with CJK, emoji
/// sequences, words longer than a line, line feeds, cut texts and bytes that are not UTF-8.
@Suite struct TextBlockLinesTests {
    let body = TypeStyle(style: 0x300)!
    let headline = TypeStyle(style: 0x400)!

    static let samples = [
        "无线蓝牙耳机 Pro 降噪 Wireless Earbuds with Charging Case",
        "Stainless steel water bottle 750ml, keeps drinks cold for 24 hours",
        "东京の天気は晴れです。明日は雨が降るでしょう、傘を持って行きましょう。",
        "Family 👨‍👩‍👧‍👦 pack 🇯🇵 flags 👍🏽 and keycaps 1️⃣ 2️⃣ in a long title that wraps",
        "Supercalifragilisticexpialidociousandmoreletters in one word",
        "Line one\nLine two\n\nLine four after a blank one",
        "e\u{301}te\u{301} cafe\u{301} na\u{308}ive with combining marks, repeated: e\u{301}te\u{301} cafe\u{301}",
        "¥199.00",
        "   leading and trailing spaces   ",
    ]

    /// Line i's bytes as `withLineUTF8` gives them.
    func bytes(_ block: TextBlock, _ i: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        block.withLineUTF8(i) { bytes = Array($0) }
        return bytes
    }

    @Test(arguments: samples)
    func eachLineReadFromItsBytesIsTheLineAsAString(text: String) {
        for width in [40.0, 90, 160, 375] {
            for limit in [0, 1, 2] {
                let block = TextEngine.shared.layout(text, style: body, maxWidth: width, maxLines: limit)
                let lines = block.lines
                #expect(block.lineCount == lines.count)
                #expect(block.height == Double(lines.count) * block.lineHeight)
                #expect(block.width == lines.reduce(0) { max($0, $1.width) })
                for (i, line) in lines.enumerated() {
                    #expect(bytes(block, i) == Array(line.text.utf8), "\(text) at \(width), line \(i)")
                    #expect(block.lineWidth(i) == line.width)
                }
                // Uncut, the lines are the text's own pieces, in order; cut, the last one ends in "…".
                var rest = Substring(text)
                for (i, line) in lines.enumerated() {
                    var shown = Substring(line.text)
                    if block.truncated && i == lines.count - 1 {
                        #expect(shown.hasSuffix("\u{2026}"))
                        shown = shown.dropLast()
                    }
                    if shown.isEmpty { continue }  // a blank line (between line feeds, or all white space)
                    guard let found = rest.range(of: shown) else {
                        Issue.record("line \(i) \(line.text) not in what is left of \(text)")
                        break
                    }
                    rest = rest[found.upperBound...]
                }
            }
        }
    }

    @Test func linesOfBytesThatAreNotUTF8AreTheRepairedText() {
        // The block's lines are ranges of the text it laid out (U+FFFD for each bad sequence), not of the
        // caller's bytes.
        let raw: [UInt8] = [0x61, 0xFF, 0x62, 0x20, 0xE6, 0x97, 0x20, 0x63]
        let block = raw.withUnsafeBytes {
            TextEngine.shared.layout(utf8: $0, style: body, maxWidth: 300, maxLines: 0)
        }
        #expect(block.lines.map(\.text) == ["a\u{FFFD}b \u{FFFD} c"])
        #expect(bytes(block, 0) == Array("a\u{FFFD}b \u{FFFD} c".utf8))
    }

    @Test func aBlockNotKeptIsFoundOnlyUntilTheNextOne() {
        let keeping = KeepingBlocksTests.Switch()
        let engine = TextEngine(keepsBlocks: { keeping.on.load(ordering: .relaxed) })
        func layout(_ text: String, keep: Bool) -> TextBlock {
            keeping.on.store(keep, ordering: .relaxed)
            var text = text
            return text.withUTF8 {
                engine.layout(utf8: UnsafeRawBufferPointer($0), style: headline, maxWidth: 251, maxLines: 1)
            }
        }
        let price = layout("¥1234.56", keep: false)
        #expect(engine.counts.laidOut == 1)
        // Measured right after it was drawn (a card's original price): found.
        #expect(layout("¥1234.56", keep: true) == price)
        #expect(engine.counts.cached == 1 && engine.counts.laidOut == 1)
        _ = layout("¥99.00", keep: false)
        #expect(engine.counts.laidOut == 2)
        // Another text was drawn since: not kept, laid out again.
        #expect(layout("¥1234.56", keep: true) == price)
        #expect(engine.counts.laidOut == 3)
        // Kept now: found however many texts are drawn after it.
        _ = layout("¥5.00", keep: false)
        #expect(layout("¥1234.56", keep: false) == price)
        #expect(engine.counts.laidOut == 4 && engine.counts.cached == 2)
    }
}

/// A process that renders a page once keeps no blocks (TextEngine.keepBlocks): asked at each layout.
@Suite struct KeepingBlocksTests {
    final class Switch: Sendable {
        let on = Atomic<Bool>(true)
    }

    @Test func anEngineThatKeepsNoBlocksLaysATextOutEachTime() {
        let keeping = Switch()
        let engine = TextEngine(keepsBlocks: { keeping.on.load(ordering: .relaxed) })
        let style = TypeStyle(style: 0x300)!
        func layout(_ text: String) -> TextBlock { engine.layout(text, style: style, maxWidth: 200, maxLines: 2) }
        keeping.on.store(false, ordering: .relaxed)
        let first = layout("无线蓝牙耳机 Pro")
        _ = layout("Stainless steel bottle 750ml")
        #expect(layout("无线蓝牙耳机 Pro") == first)
        #expect(engine.counts.laidOut == 3 && engine.counts.cached == 0, "\(engine.counts)")
        // Keeping again: a text laid out now is found however many follow it.
        keeping.on.store(true, ordering: .relaxed)
        _ = layout("有机纯牛奶 250ml×12")
        _ = layout("Stainless steel bottle 750ml")
        _ = layout("有机纯牛奶 250ml×12")
        #expect(engine.counts.laidOut == 5 && engine.counts.cached == 1, "\(engine.counts)")
    }
}
