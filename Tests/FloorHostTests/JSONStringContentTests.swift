import FloorCore
import Testing

/// JSONStringContent decodes escaped string content straight to UTF-8: for every content, validated or
/// not, it must give the text the scalar-by-scalar reference gives.
struct JSONStringContentTests {
    /// The rule written out scalar by scalar (how `decoded` worked before it wrote bytes).
    static func reference(_ content: [UInt8]) -> String {
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= content.count else { return nil }
            return UInt32(String(decoding: content[at..<at + 4], as: UTF8.self), radix: 16).flatMap {
                content[at..<at + 4].allSatisfy { $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") } ? $0 : nil
            }
        }
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < content.count {
            if content[i] != UInt8(ascii: "\\") {
                var end = i + 1
                while end < content.count && content[end] != UInt8(ascii: "\\") { end += 1 }
                scalars.append(contentsOf: String(decoding: content[i..<end], as: UTF8.self).unicodeScalars)
                i = end
                continue
            }
            guard i + 1 < content.count else { break }
            let escaped = content[i + 1]
            i += 2
            var value: UInt32
            switch escaped {
            case UInt8(ascii: "b"): value = 0x08
            case UInt8(ascii: "f"): value = 0x0C
            case UInt8(ascii: "n"): value = 0x0A
            case UInt8(ascii: "r"): value = 0x0D
            case UInt8(ascii: "t"): value = 0x09
            case UInt8(ascii: "u"):
                guard let unit = hex4(i) else {
                    value = 0xFFFD
                    break
                }
                i += 4
                value = unit
                if (0xD800...0xDBFF).contains(unit), i + 6 <= content.count, content[i] == UInt8(ascii: "\\"),
                    content[i + 1] == UInt8(ascii: "u"), let trail = hex4(i + 2), (0xDC00...0xDFFF).contains(trail)
                {
                    value = 0x10000 + ((unit - 0xD800) << 10) + (trail - 0xDC00)
                    i += 6
                }
            default: value = UInt32(escaped)
            }
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(scalars)
    }

    static func decoded(_ content: [UInt8]) -> String { content.withUnsafeBytes { JSONStringContent.decoded($0) } }

    @Test func escapesDecodeAsTheReferenceDoes() {
        let cases = [
            #"27\" Monitor"#, #"a\\b\/c"#, #"\n\t\r\b\f"#, #"\u00e9\u4e2d\u6587"#, #"\ud83d\ude00 smile"#,
            #"\ud800 lone"#,
            #"\udc00 trail"#, #"\ud83d\u0041"#, #"\u12"#, #"\uZZZZ"#, "end\\", "显示器 \\\"27\\\"",
            #"https:\/\/img.example.com\/p\/1.jpg"#,
            #"\u0000nul"#, "\\é", "",
        ]
        for text in cases {
            let content = Array(text.utf8)
            #expect(Self.decoded(content) == Self.reference(content), "\(text)")
        }
    }

    /// Arbitrary bytes, escapes and pieces of escapes among them: the same text every time.
    @Test func anyBytesDecodeAsTheReferenceDoes() {
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [
            Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\u"#.utf8), Array("d83d".utf8), Array("de00".utf8),
            Array("00e9".utf8), Array("中".utf8), [0xE4], [0xB8], [0xFF], [0x80], Array("ab".utf8), [0x5C],
        ]
        var wrong: [[UInt8]] = []
        for _ in 0..<20_000 {
            var content: [UInt8] = []
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                content += pieces.randomElement(using: &generator)!
            }
            if Self.decoded(content) != Self.reference(content) { wrong.append(content) }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
    }
}
