import Testing
import UTF8Validation

@testable import FloorText

/// The engine lays valid UTF-8 out from the caller's bytes and repairs only what is not (ValidUTF8): its
/// answer must be the standard library's for every sequence, in and after a run of ASCII.
@Suite struct ValidUTF8Tests {
    static func standard(_ bytes: [UInt8]) -> Bool { String(validating: bytes, as: UTF8.self) != nil }

    static func mine(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { ValidUTF8.check($0) } }

    /// Every sequence of one and two bytes, alone and after nine ASCII bytes (the eight-at-a-time path).
    @Test func everyShortSequenceAnswersAsTheStandardLibrary() {
        let ascii = Array("abcdefghi".utf8)
        var wrong: [[UInt8]] = []
        for a in 0...255 {
            for b in 0...255 {
                let pair = [UInt8(a), UInt8(b)]
                for bytes in [[UInt8(a)], pair, ascii + pair, pair + ascii]
                where Self.mine(bytes) != Self.standard(bytes) {
                    wrong.append(bytes)
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    /// Three- and four-byte leads with every second byte and the edges of the continuation range after it.
    @Test func longerSequencesAnswerAsTheStandardLibrary() {
        let edges: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        var wrong: [[UInt8]] = []
        for lead in 0xE0...0xF7 {
            for second in 0...255 {
                for third in edges {
                    for fourth in edges {
                        let bytes = [UInt8(lead), UInt8(second), third, fourth]
                        for candidate in [Array(bytes.prefix(3)), bytes, Array(bytes.prefix(3)) + [0x41]]
                        where Self.mine(candidate) != Self.standard(candidate) {
                            wrong.append(candidate)
                        }
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test func realTextIsValid() {
        #expect(Self.mine(Array("显示器 Backpack Pro 😀 ¥1,299.00 e\u{301}".utf8)))
        #expect(Self.mine([]))
    }
}
