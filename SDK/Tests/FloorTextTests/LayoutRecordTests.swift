import Testing

@testable import FloorText

/// The record of a page's layouts (LayoutRecord): what a whole page's height calculators laid out, found
/// by its drawing in the same order, each block as a fresh layout gives it, and let go once drawn.
@Suite struct LayoutRecordTests {
    let body = TypeStyle(style: 0x300)!
    let headline = TypeStyle(style: 0x400)!

    func layout(_ engine: TextEngine, _ text: String, style: TypeStyle, width: Double, lines: Int) -> TextBlock {
        var text = text
        return text.withUTF8 {
            engine.layout(utf8: UnsafeRawBufferPointer($0), style: style, maxWidth: width, maxLines: lines)
        }
    }

    @Test func aPageDrawnInOrderFindsEachMeasuredTextLaidOutAsAFreshLayoutGivesIt() {
        let titles = TextBlockLinesTests.samples
        let engine = TextEngine()
        engine.recordLayouts(.recording)
        for title in titles { _ = layout(engine, title, style: body, width: 251, lines: 2) }
        let measured = engine.counts
        engine.recordLayouts(.replaying)
        let fresh = TextEngine()
        for (i, title) in titles.enumerated() {
            let drawn = layout(engine, title, style: body, width: 251, lines: 2)
            #expect(drawn == layout(fresh, title, style: body, width: 251, lines: 2), "\(title)")
            // A text the height did not measure (a price) is laid out, and the record stays as it was.
            _ = layout(engine, "¥\(i)99.00", style: headline, width: 251, lines: 1)
        }
        let drawn = engine.counts
        #expect(drawn.replayed - measured.replayed == titles.count)
        #expect(drawn.laidOut - measured.laidOut == titles.count)
        engine.recordLayouts(.off)
    }

    @Test func aTextPassedByTheDrawingIsLetGoAndOneAfterTheWindowIsNotFound() {
        let engine = TextEngine()
        let texts = (0..<20).map { "title number \($0) of a long feed" }
        engine.recordLayouts(.recording)
        for text in texts { _ = layout(engine, text, style: body, width: 200, lines: 2) }
        engine.recordLayouts(.replaying)
        var before = engine.counts.replayed
        // Texts 1 and 2 are left out: 3 is within the window of the head (0), found; 0, 1 and 2 let go.
        _ = layout(engine, texts[0], style: body, width: 200, lines: 2)
        _ = layout(engine, texts[3], style: body, width: 200, lines: 2)
        #expect(engine.counts.replayed - before == 2)
        before = engine.counts.replayed
        _ = layout(engine, texts[1], style: body, width: 200, lines: 2)
        #expect(engine.counts.replayed == before)
        // Text 19 is past the window (head at 4): not found, and the head stays where it was.
        _ = layout(engine, texts[19], style: body, width: 200, lines: 2)
        #expect(engine.counts.replayed == before)
        _ = layout(engine, texts[4], style: body, width: 200, lines: 2)
        #expect(engine.counts.replayed == before + 1)
        // Other arguments (a width) are another layout, not the recorded one.
        _ = layout(engine, texts[5], style: body, width: 150, lines: 2)
        #expect(engine.counts.replayed == before + 1)
        engine.recordLayouts(.off)
        _ = layout(engine, texts[5], style: body, width: 200, lines: 2)
        #expect(engine.counts.replayed == before + 1)
    }
}
