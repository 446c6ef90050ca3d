/// A schema "pattern" that is exactly one character class of literal characters and ranges, `[...]` or
/// `[^...]` (FloorKit's `.notBlank` rule writes `[^ \t...]`): it matches where some character of the text is
/// (or, negated, is not) in the class, so a scan over the UTF-8 decides it, with no regular-expression
/// engine and no String. Any other pattern, or a class with an escape, a nested set, `&`, `:`, `{`, `$` or a
/// `-` that is not between two characters, is left to ICU (FloorSchema.Pattern). Invalid UTF-8 reads as
/// U+FFFD, as ICU reads it.
package struct CharacterClass: Sendable {
    let negated: Bool
    let ranges: [ClosedRange<UInt32>]
    /// The class's ASCII characters, bit `c` for character `c` (the low word 0-63, the high 64-127), and
    /// whether it has no other: what `matches` decides most texts by, at their first byte.
    let ascii: (low: UInt64, high: UInt64)
    let asciiOnly: Bool

    /// nil unless `pattern` has exactly that shape.
    package init?(_ pattern: String) {
        var scalars = Array(pattern.unicodeScalars)
        guard scalars.count >= 3, scalars.first == "[", scalars.last == "]" else { return nil }
        scalars = Array(scalars.dropFirst().dropLast())
        negated = scalars.first == "^"
        if negated { scalars.removeFirst() }
        guard !scalars.isEmpty, !scalars.contains(where: { "\\[]&:{}$^".unicodeScalars.contains($0) }) else {
            return nil
        }
        var ranges: [ClosedRange<UInt32>] = []
        var i = 0
        while i < scalars.count {
            let low = scalars[i]
            guard low != "-" else { return nil }
            if i + 1 < scalars.count, scalars[i + 1] == "-" {
                guard i + 2 < scalars.count, scalars[i + 2] != "-", low.value <= scalars[i + 2].value else {
                    return nil
                }
                ranges.append(low.value...scalars[i + 2].value)
                i += 3
            } else {
                ranges.append(low.value...low.value)
                i += 1
            }
        }
        self.ranges = ranges
        var ascii: (low: UInt64, high: UInt64) = (0, 0)
        for c in UInt32(0)..<128 where ranges.contains(where: { $0.contains(c) }) {
            if c < 64 { ascii.low |= 1 << UInt64(c) } else { ascii.high |= 1 << UInt64(c - 64) }
        }
        self.ascii = ascii
        asciiOnly = ranges.allSatisfy { $0.upperBound < 0x80 }
    }

    /// Whether the class matches somewhere in `utf8`.
    package func matches(_ utf8: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i < utf8.count {
            let byte = utf8[i]
            if byte < 0x80 {
                let word = byte < 64 ? ascii.low : ascii.high
                if ((word >> UInt64(byte & 63)) & 1 != 0) != negated { return true }
                i += 1
                continue
            }
            // Any byte from 0x80 starts a scalar of 0x80 or more (U+FFFD when it starts no valid
            // sequence), which a class of ASCII characters alone never holds: a negated one matches it.
            if asciiOnly && negated { return true }
            let (scalar, length) = Self.scalar(in: utf8, at: i)
            if ranges.contains(where: { $0.contains(scalar) }) != negated { return true }
            i += length
        }
        return false
    }

    /// The scalar at `i` and its length in bytes; U+FFFD and 1 for a byte that starts no valid sequence.
    package static func scalar(in utf8: UnsafeRawBufferPointer, at i: Int) -> (UInt32, Int) {
        let lead = UInt32(utf8[i])
        if lead < 0x80 { return (lead, 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0
        guard length > 0, lead < 0xF5, i + length <= utf8.count else { return (0xFFFD, 1) }
        var value = lead & (0xFF >> UInt32(length + 1))
        for k in 1..<length {
            let byte = UInt32(utf8[i + k])
            guard byte & 0xC0 == 0x80 else { return (0xFFFD, 1) }
            value = value << 6 | byte & 0x3F
        }
        // Overlong forms, surrogates and values past U+10FFFF are not scalars.
        let smallest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= smallest, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return (0xFFFD, 1) }
        return (value, length)
    }

    /// JSON Schema's length of `utf8`: its Unicode scalars.
    package static func scalarCount(_ utf8: UnsafeRawBufferPointer) -> Int {
        var count = 0
        var i = 0
        while i < utf8.count {
            i += scalar(in: utf8, at: i).1
            count += 1
        }
        return count
    }
}
