import Synchronization
import Testing

@testable import FloorText

/// An engine that keeps its measures (`TextEngine.reuseMeasures`: keeping while heights are measured,
/// reusing while rows are drawn) lays every text out as an engine that keeps nothing does, block for block:
/// the texts it measured from their kept lines, the others (not measured, measured with other arguments,
/// passed over, changed bytes at the same place) afresh.
@Suite struct MeasuredLinesTests {
    final class Phase: Sendable {
        let value = Atomic<Int>(TextEngine.MeasureReuse.off.rawValue)
        func set(_ reuse: TextEngine.MeasureReuse) { value.store(reuse.rawValue, ordering: .relaxed) }
        var reuse: TextEngine.MeasureReuse { TextEngine.MeasureReuse(rawValue: value.load(ordering: .relaxed))! }
    }

    static let titles: [[UInt8]] = [
        "无线蓝牙耳机 Pro Stainless steel bottle 750ml", "Stainless steel bottle 750ml", "有机 牛奶 Organic milk",
        "显示器 Backpack Pro Coffee 4K 750ml RGB 显示器 Backpack Pro Coffee", "To", "长长长长长长长长长长长长长长长长长长长",
    ].map { Array($0.utf8) }

    private func lines(_ block: TextBlock) -> [TextBlock.Line] { block.lines }

    @Test func drawnTextsAreLaidOutAsAfreshWhetherKeptOrNot() throws {
        let style = try #require(TypeStyle(style: 0x301))
        let price = try #require(TypeStyle(style: 0x200))
        let phase = Phase()
        let reusing = TextEngine(keepsBlocks: { false }, reusesMeasures: { phase.reuse })
        let fresh = TextEngine(keepsBlocks: { false })
        // The heights: every title measured at 160 points, two lines at most; one also at another width.
        phase.set(.keeping)
        for title in Self.titles {
            _ = title.withUnsafeBytes { reusing.measures(utf8: $0, style: style, maxWidth: 160, maxLines: 2) }
        }
        _ = Self.titles[0].withUnsafeBytes { reusing.measures(utf8: $0, style: style, maxWidth: 90, maxLines: 2) }
        #expect(reusing.counts.reused == 0)
        // The drawing: each row's title and a price not measured; row 2's title is not drawn (passed over);
        // row 3's title drawn at another width first (not the kept one), then as measured.
        phase.set(.reusing)
        var drawn: [(text: [UInt8], style: TypeStyle, width: Double)] = []
        for (row, title) in Self.titles.enumerated() {
            if row == 3 { drawn.append((title, style, 200)) }
            if row != 2 { drawn.append((title, style, 160)) }
            drawn.append((Array("¥\(row)99.00".utf8), price, 160))
        }
        for (text, style, width) in drawn {
            let kept = text.withUnsafeBytes { reusing.layout(utf8: $0, style: style, maxWidth: width, maxLines: 2) }
            let afresh = text.withUnsafeBytes { fresh.layout(utf8: $0, style: style, maxWidth: width, maxLines: 2) }
            #expect(lines(kept) == lines(afresh), "\(String(decoding: text, as: UTF8.self)) at \(width)")
            #expect(kept.width == afresh.width && kept.truncated == afresh.truncated && kept.height == afresh.height)
        }
        // Five titles drawn as measured came from what was kept; the prices and the 200-point title did not.
        #expect(reusing.counts.reused == 5, "\(reusing.counts)")
    }

    /// The whole page's text preview takes a drawn text's block from what was kept on the drawing's thread, in
    /// the cells' order (`measuredBlock`), and has the others laid out afresh where its recordings are drawn,
    /// on the writer's thread meanwhile (`layoutAfresh`): which leaves what was kept, its order and the cache
    /// alone, so every title is still taken, and every block is the one laid out afresh.
    @Test func takenInOrderWhileAnotherThreadLaysTextsOutAfresh() async throws {
        let style = try #require(TypeStyle(style: 0x301))
        let price = try #require(TypeStyle(style: 0x200))
        let phase = Phase()
        let engine = TextEngine(keepsBlocks: { false }, reusesMeasures: { phase.reuse })
        let fresh = TextEngine(keepsBlocks: { false })
        phase.set(.keeping)
        for title in Self.titles {
            _ = title.withUnsafeBytes { engine.measures(utf8: $0, style: style, maxWidth: 160, maxLines: 2) }
        }
        phase.set(.reusing)
        let prices = (0..<Self.titles.count).map { Array("¥\($0)99.00".utf8) }
        // The writer's thread: the titles and prices laid out afresh, again and again; the blocks that differ.
        let writer = Task.detached {
            var differ = 0
            for _ in 0..<50 {
                for (text, type) in Self.titles.map({ ($0, style) }) + prices.map({ ($0, price) }) {
                    let afresh = text.withUnsafeBytes {
                        engine.layoutAfresh(utf8: $0, style: type, maxWidth: 160, maxLines: 2)
                    }
                    let expected = text.withUnsafeBytes {
                        fresh.layout(utf8: $0, style: type, maxWidth: 160, maxLines: 2)
                    }
                    if afresh != expected { differ += 1 }
                }
            }
            return differ
        }
        // The drawing's thread: each row's title taken, its price (never measured) not.
        for (title, rowPrice) in zip(Self.titles, prices) {
            let taken = title.withUnsafeBytes {
                engine.measuredBlock(utf8: $0, style: style, maxWidth: 160, maxLines: 2)
            }
            let expected = title.withUnsafeBytes { fresh.layout(utf8: $0, style: style, maxWidth: 160, maxLines: 2) }
            #expect(taken == expected, "\(String(decoding: title, as: UTF8.self))")
            #expect(
                rowPrice.withUnsafeBytes { engine.measuredBlock(utf8: $0, style: price, maxWidth: 160, maxLines: 2) }
                    == nil)
        }
        #expect(await writer.value == 0)
        #expect(engine.counts.reused == Self.titles.count && engine.counts.cached == 0, "\(engine.counts)")
    }

    /// An engine that has kept `text` measured at 100 points, two lines at most, and its phase.
    private func engine(keeping text: [UInt8], style: TypeStyle) -> (TextEngine, Phase) {
        let phase = Phase()
        let engine = TextEngine(keepsBlocks: { false }, reusesMeasures: { phase.reuse })
        phase.set(.keeping)
        _ = text.withUnsafeBytes { engine.measures(utf8: $0, style: style, maxWidth: 100, maxLines: 2) }
        return (engine, phase)
    }

    @Test func theSameBytesAtTheSamePlaceAreComparedNotTrusted() throws {
        let style = try #require(TypeStyle(style: 0x300))
        var text = Array("Stainless steel bottle 750ml Stainless".utf8)
        let (engine, phase) = engine(keeping: text, style: style)
        // The buffer changed in place (a temporary reused): a text of the same length, other bytes.
        text.replaceSubrange(0..<9, with: Array("Organic m".utf8))
        phase.set(.reusing)
        let block = text.withUnsafeBytes { engine.layout(utf8: $0, style: style, maxWidth: 100, maxLines: 2) }
        let afresh = text.withUnsafeBytes {
            TextEngine(keepsBlocks: { false }).layout(utf8: $0, style: style, maxWidth: 100, maxLines: 2)
        }
        #expect(block.lines == afresh.lines)
        #expect(engine.counts.reused == 0)
    }

    /// A text over the block cache's limit is laid out afresh when drawn, so it is not kept either.
    @Test func aTextOverTheCacheLimitIsNotKept() throws {
        let style = try #require(TypeStyle(style: 0x300))
        let long = Array(String(repeating: "word ", count: 1000).utf8)
        let (engine, phase) = engine(keeping: long, style: style)
        phase.set(.reusing)
        let block = long.withUnsafeBytes { engine.layout(utf8: $0, style: style, maxWidth: 100, maxLines: 2) }
        #expect(block.truncated && engine.counts.kept == 0 && engine.counts.reused == 0, "\(engine.counts)")
        // A short one is kept.
        let (short, _) = self.engine(keeping: Array("Stainless steel bottle".utf8), style: style)
        #expect(short.counts.kept == 1)
    }

    @Test func whatWasKeptIsForgottenWhenReuseIsOff() throws {
        let style = try #require(TypeStyle(style: 0x300))
        let text = Array("Stainless steel bottle 750ml".utf8)
        let (engine, phase) = engine(keeping: text, style: style)
        // Any call with reuse off forgets what was kept.
        phase.set(.off)
        let other = Array("Organic milk".utf8)
        _ = other.withUnsafeBytes { engine.layout(utf8: $0, style: style, maxWidth: 100, maxLines: 2) }
        phase.set(.reusing)
        _ = text.withUnsafeBytes { engine.layout(utf8: $0, style: style, maxWidth: 100, maxLines: 2) }
        #expect(engine.counts.reused == 0 && engine.counts.laidOut == 3, "\(engine.counts)")
    }
}
