import HostContract
import Testing

/// ABI 1.4's measure_text as the hosts answer it (TextMeasure): 5 points a display column, controls as
/// their \uXXXX escape. That the canvas and a height calculator measure what the text backend draws is
/// the root package's TextMeasureTests.
struct TextMeasureTests {
    @Test func knownWidths() {
        #expect(TextMeasure.points("abc") == 15)
        #expect(TextMeasure.points("耳机") == 20)  // double width
        #expect(TextMeasure.points("e\u{301}") == 5)  // a combining mark adds nothing
        #expect(TextMeasure.points("a\u{7}") == 35)  // BEL is drawn as \u0007
        #expect(TextMeasure.points(cString: nil, style: 0) == 0)
    }
}
