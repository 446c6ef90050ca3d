/// The characters past ASCII a page's file holds, as its strings would show them: UTF-8 decoded, `\uXXXX`
/// escapes (surrogate pairs joined) read as what they stand for. Keys count too: a superset of what the
/// page's rows draw, found without decoding the page. What a plugin draws of its own (a currency sign, a
/// label) may be missing: the preview's faces fall back to the whole font for those (FontSubsets).
enum PageCharacters {
    /// Past this many distinct characters a page gets no subset: its faces are the whole files.
    static let limit = 4_000

    /// Sorted, distinct; nil past `limit`.
    static func of(_ bytes: [UInt8]) -> [UInt32]? {
        var seen = Set<UInt32>()
        var i = 0
        func hex(at j: Int) -> UInt32? {
            guard j + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for b in bytes[j..<j + 4] {
                switch b {
                case 0x30...0x39: value = value << 4 | UInt32(b - 0x30)
                case 0x41...0x46: value = value << 4 | UInt32(b - 0x41 + 10)
                case 0x61...0x66: value = value << 4 | UInt32(b - 0x61 + 10)
                default: return nil
                }
            }
            return value
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x5C, i + 1 < bytes.count, bytes[i + 1] == 0x75, let unit = hex(at: i + 2) {  // \uXXXX
                i += 6
                var scalar = unit
                if (0xD800..<0xDC00).contains(unit), i + 1 < bytes.count, bytes[i] == 0x5C, bytes[i + 1] == 0x75,
                    let low = hex(at: i + 2), (0xDC00..<0xE000).contains(low)
                {
                    scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                if scalar >= 0x80 { seen.insert(scalar) }
            } else if b == 0x5C {
                i += 2  // an escape: the byte after the backslash is not a character of its own
            } else if b < 0x80 {
                i += 1
            } else {
                let width = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
                guard width > 1, i + width <= bytes.count else {
                    i += 1
                    continue
                }
                var scalar = UInt32(b) & (0xFF >> (width + 1))
                for k in 1..<width { scalar = scalar << 6 | UInt32(bytes[i + k] & 0x3F) }
                seen.insert(scalar)
                i += width
            }
            if seen.count > limit { return nil }
        }
        return seen.sorted()
    }
}
