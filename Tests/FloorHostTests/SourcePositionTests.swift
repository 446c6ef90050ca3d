import FloorCore
import Testing

/// SourcePosition.Counter against a position worked out independently, scalar by scalar from a String.
@Suite struct SourcePositionTests {
    /// Line and column of every byte offset that starts a scalar (or ends the text), counted from the text's
    /// scalars: the reference the counter must agree with.
    static func reference(_ text: String) -> [Int: (line: Int, column: Int)] {
        var positions: [Int: (line: Int, column: Int)] = [:]
        var offset = 0
        var line = 1
        var column = 1
        for scalar in text.unicodeScalars {
            positions[offset] = (line, column)
            offset += String(scalar).utf8.count
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        positions[offset] = (line, column)
        return positions
    }

    /// A counter that skips to a position counted by another gives, from there on, what one that counted
    /// every byte gives; a position behind it is ignored.
    @Test func aCounterSkippedToAKnownPositionGoesOnFromIt() {
        let text = "{\n  \"a\": \"é中\",\n  \"b\": [1,\n 2],\n  \"c\": \"😀 x\"\n}\n"
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in
            var counting = SourcePosition.Counter(raw)
            let known = counting.position(of: 20, in: raw)!
            for offset in 20...bytes.count {
                var skipping = SourcePosition.Counter(raw)
                skipping.skip(to: known)
                skipping.skip(to: SourcePosition(line: 1, column: 1, offset: 3))
                var whole = SourcePosition.Counter(raw)
                #expect(skipping.position(of: offset, in: raw) == whole.position(of: offset, in: raw), "\(offset)")
            }
            // The bytes before the position are never read: zeros there change nothing.
            var zeroed = bytes
            for i in 0..<20 { zeroed[i] = 0 }
            zeroed.withUnsafeBytes { gone in
                var skipping = SourcePosition.Counter(gone)
                skipping.skip(to: known)
                var whole = SourcePosition.Counter(raw)
                #expect(skipping.position(of: bytes.count, in: gone) == whole.position(of: bytes.count, in: raw))
            }
        }
    }

    /// Long runs without a newline (counted 32 bytes at a time), newlines at every alignment, and scalars of
    /// one to four bytes straddling the blocks' edges; each offset asked after a jump of a different size.
    @Test(arguments: [1, 3, 7, 8, 9, 17, 64, 1_000])
    func aCounterAgreesWithScalarsCountedOneByOne(jump: Int) {
        var text = ""
        for index in 0..<400 {
            text += String(repeating: "a", count: index % 11)
            text += ["é", "中", "😀", "\"x\": 1,", "\n", "\n\n", "", "¥199.00"][index % 8]
            // Now and then a line long enough for blocks of 32 bytes without a newline, many of them.
            if index % 50 == 7 { text += String(repeating: "é中😀a\"", count: 60 + index % 7) }
        }
        let reference = Self.reference(text)
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in
            var counter = SourcePosition.Counter(raw)
            var offset = 0
            var asked = 0
            while offset <= bytes.count {
                if let expected = reference[offset] {
                    let position = counter.position(of: offset, in: raw)
                    #expect(position == SourcePosition(line: expected.line, column: expected.column, offset: offset))
                    asked += 1
                }
                offset += jump
            }
            #expect(asked > 1)
            // The end of the text, whatever the jump left out.
            let end = reference[bytes.count]!
            #expect(
                counter.position(of: bytes.count, in: raw)
                    == SourcePosition(line: end.line, column: end.column, offset: bytes.count))
        }
    }
}
