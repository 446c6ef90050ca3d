import CFloorABI
import HostContract
import Testing

/// The host's answer to ABI 1.5's text calls (docs/ABI.md, "Text layout"): style 0 keeps 1.4's cell
/// metrics, the other styles are real type, a short struct gets only the fields it covers, and a 1.5
/// style makes 1.4's measure_text return the real single-line width.
struct HostTextLayoutTests {
    @Test func cellStyleKeepsCellMetrics() {
        let block = HostTextLayout.block("alpha beta gamma", style: 0, maxWidth: 45, maxLines: 0)
        #expect(block.lines.map(\.text) == ["alpha", "beta", "gamma"])
        #expect(block.height == 36 && block.width == 25)
        #expect(TextMeasure.points("alpha", style: FLOOR_TEXT_BOLD) == 25, "1.4 measuring is unchanged")
    }

    @Test func realStylesMeasureRealType() {
        let caption = HostTextLayout.block("iiiiiiiiii", style: FLOOR_TEXT_CAPTION, maxWidth: 1000, maxLines: 0)
        let wide = HostTextLayout.block("WWWWWWWWWW", style: FLOOR_TEXT_CAPTION, maxWidth: 1000, maxLines: 0)
        #expect(caption.width < wide.width / 2, "proportional type: i is far narrower than W")
        #expect(caption.height == 16)
        #expect(TextMeasure.points("WWWWWWWWWW", style: FLOOR_TEXT_CAPTION) == wide.width)
    }

    @Test func aShortStructGetsOnlyTheFieldsItCovers() {
        let text = "one two three four five six"
        var out = floor_text_layout_t()
        out.struct_size = UInt32(MemoryLayout<floor_text_layout_t>.offset(of: \floor_text_layout_t.height)!)
        out.height = -7
        text.withCString {
            HostTextLayout.write(
                HostTextLayout.block(
                    utf8: $0, length: UInt64(text.utf8.count), style: FLOOR_TEXT_BODY, maxWidth: 60, maxLines: 0),
                to: &out)
        }
        #expect(out.lines > 1 && out.width > 0 && out.width <= 60)
        #expect(out.height == -7, "past struct_size: not written")
        HostTextLayout.write(HostTextLayout.block("x", style: 0, maxWidth: 1, maxLines: 0), to: nil)
    }

    @Test func lengthsCarryNULAndNULLIsEmpty() {
        let bytes: [CChar] = [0x61, 0x00, 0x62]
        let block = bytes.withUnsafeBufferPointer {
            HostTextLayout.block(utf8: $0.baseAddress, length: 3, style: FLOOR_TEXT_BODY, maxWidth: 500, maxLines: 0)
        }
        #expect(block.lines.map(\.text) == ["a\u{0}b"])
        let none = HostTextLayout.block(utf8: nil, length: 99, style: FLOOR_TEXT_BODY, maxWidth: 500, maxLines: 0)
        #expect(none.lines.isEmpty)
        let huge = HostTextLayout.block(utf8: nil, length: .max, style: 0, maxWidth: .nan, maxLines: .max)
        #expect(huge.lines.isEmpty)
    }
}
