/// Whether bytes are valid UTF-8 (Unicode's table 3-7: no overlong forms, no surrogates, nothing past
/// U+10FFFF), eight ASCII bytes at a time: the text engine (FloorText) lays valid text out from the bytes it
/// was given, and a model's `Text` (FloorKit) keeps valid text as it came; each makes a repaired copy only of
/// text that is not. A target of its own, with no dependency and no Foundation, so that FloorKit's decoding
/// still builds under Embedded Swift (Scripts/wasm-decode).
package enum ValidUTF8 {
    package static func check(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return true }
        var i = 0
        while i < count {
            if i + 8 <= count {
                // The ASCII bytes of a word at once, up to its first that is not (mixed text: titles).
                let high = base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080
                if high == 0 {
                    i += 8
                    continue
                }
                i += high.trailingZeroBitCount >> 3
            }
            let lead = base.load(fromByteOffset: i, as: UInt8.self)
            if lead < 0x80 {
                i += 1
                continue
            }
            // The commonest sequence after ASCII in titles, an ideograph's: three bytes whose lead (E1-EC,
            // EE, EF) allows any continuation after it, checked without the table below.
            if lead &- 0xE1 < 0x0F && lead != 0xED && i + 3 <= count {
                let second = base.load(fromByteOffset: i + 1, as: UInt8.self)
                let third = base.load(fromByteOffset: i + 2, as: UInt8.self)
                guard second & 0xC0 == 0x80, third & 0xC0 == 0x80 else { return false }
                i += 3
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, high) = (3, 0x9F)
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, high) = (4, 0x8F)
            default: return false
            }
            guard i + length <= count else { return false }
            let second = base.load(fromByteOffset: i + 1, as: UInt8.self)
            guard second >= low, second <= high else { return false }
            if length > 2 {
                guard base.load(fromByteOffset: i + 2, as: UInt8.self) & 0xC0 == 0x80 else { return false }
                if length > 3, base.load(fromByteOffset: i + 3, as: UInt8.self) & 0xC0 != 0x80 { return false }
            }
            i += length
        }
        return true
    }
}
