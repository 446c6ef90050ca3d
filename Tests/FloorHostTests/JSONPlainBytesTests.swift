import FloorCore
import Testing

/// The string scanner skips plain bytes eight at a time (JSONPlainBytes): it must stop exactly where the
/// byte-by-byte rule stops, wherever the byte to look at falls in a word.
struct JSONPlainBytesTests {
    static func byByte(_ bytes: [UInt8], from: Int) -> Int {
        var i = from
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x20 || b >= 0x80 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return i }
            i += 1
        }
        return bytes.count
    }

    static func skipped(_ bytes: [UInt8], from: Int) -> Int {
        bytes.withUnsafeBytes { JSONPlainBytes.end($0.baseAddress!, from: from, to: $0.count) }
    }

    /// Every byte value at every place of a 24-byte run of plain text, from every start before it.
    @Test func stopsWhereTheByteRuleStops() {
        var wrong: [(Int, Int, Int)] = []
        for special in 0...255 {
            for place in 0..<24 {
                var bytes = Array(repeating: UInt8(ascii: "a"), count: 24)
                bytes[place] = UInt8(special)
                for from in 0...place where Self.skipped(bytes, from: from) != Self.byByte(bytes, from: from) {
                    wrong.append((special, place, from))
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    /// Random bytes, mostly plain: the same stop every time.
    @Test func randomRunsStopWhereTheByteRuleStops() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 1...40, using: &generator)).map { _ in
                Int.random(in: 0..<10, using: &generator) == 0
                    ? UInt8.random(in: 0...255, using: &generator) : UInt8.random(in: 0x20...0x7E, using: &generator)
            }
            let from = Int.random(in: 0..<bytes.count, using: &generator)
            #expect(Self.skipped(bytes, from: from) == Self.byByte(bytes, from: from), "\(bytes) from \(from)")
        }
    }
}
