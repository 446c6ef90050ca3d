/// Where a run of plain string bytes ends: the first byte from `from` that is a quote, a backslash, a
/// control character (below 0x20) or not ASCII (0x80 and up), which the string scanner must look at; `to`
/// when there is none. Eight bytes at a time (SWAR: the classic "has a zero byte" test, whose lowest flagged
/// byte is always a true one), then byte by byte: a page's strings are mostly such runs.
package enum JSONPlainBytes {
    @inlinable @inline(__always)
    package static func end(_ raw: UnsafeRawPointer, from: Int, to: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var i = from
        while i + 8 <= to {
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let quote = x ^ (ones &* 0x22)  // a zero byte where x has '"'
            let backslash = x ^ (ones &* 0x5C)  // a zero byte where x has '\'
            let quotes = (quote &- ones) & ~quote
            let backslashes = (backslash &- ones) & ~backslash
            let controls = (x &- ones &* 0x20) & ~x
            let found = (quotes | backslashes | controls | x) & highs  // x's own high bits: not ASCII
            if found != 0 { return i + found.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < to {
            let b = raw.load(fromByteOffset: i, as: UInt8.self)
            if b &- 0x20 >= 0x60 || b == 0x22 || b == 0x5C { return i }
            i += 1
        }
        return to
    }
}
