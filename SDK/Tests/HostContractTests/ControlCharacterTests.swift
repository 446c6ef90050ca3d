import HostContract
import Testing

/// ControlCharacters, the one set of characters every host escapes in what a plugin supplies before it
/// reaches a terminal (C0, DEL, C1, bidi overrides and isolates), as \uXXXX. How floorhost's outputs use
/// it (text, json, --tap, conform) is the root package's ControlCharacterTests.
struct ControlCharacterTests {
    @Test func escapesEveryUnsafeClassAndNothingElse() {
        #expect(ControlCharacters.escaped("a\nb\r\tc\u{0}") == #"a\u000ab\u000d\u0009c\u0000"#)
        #expect(ControlCharacters.escaped("\u{1b}[31m\u{7f}") == #"\u001b[31m\u007f"#)
        #expect(ControlCharacters.escaped("\u{9b}31m \u{85}") == #"\u009b31m \u0085"#, "C1: CSI and NEL")
        #expect(ControlCharacters.escaped("\u{202e}evil\u{2066}x\u{2069}") == #"\u202eevil\u2066x\u2069"#)
        let harmless = "价格 ¥12.5 — café 👍 \u{a0}"
        #expect(ControlCharacters.escaped(harmless) == harmless)
        #expect(ControlCharacters.escaped("a\nb\u{1b}", keepingLineBreaks: true) == "a\nb\\u001b")
    }
}
