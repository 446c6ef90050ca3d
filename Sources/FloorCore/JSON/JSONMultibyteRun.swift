/// Where a run of the commonest well-formed multi-byte UTF-8 sequences ends: from a byte of 0x80 or more,
/// two-byte sequences (C2-DF) and three-byte ones that need no range check of their second byte (E1-EC,
/// EE-EF: most of the Basic Multilingual Plane, CJK among it) are stepped over while they follow one another.
/// It stops at an ASCII byte (the plain-bytes scan takes over: JSONPlainBytes) or at a byte it does not take
/// (E0, ED, F0-F4, or a sequence that is cut short or broken), which the full check (JSONCursor.utf8Sequence)
/// then accepts or reports at that same offset: the run accepts nothing the full check would not.
package enum JSONMultibyteRun {
    @inlinable @inline(__always)
    package static func end(_ raw: UnsafeRawPointer, from: Int, to: Int) -> Int {
        var i = from
        while true {
            let lead = raw.load(fromByteOffset: i, as: UInt8.self)
            if lead &- 0xE1 < 0x0F && lead != 0xED {  // E1-EC, EE-EF
                guard i + 3 <= to else { return i }
                let second = raw.load(fromByteOffset: i + 1, as: UInt8.self)
                let third = raw.load(fromByteOffset: i + 2, as: UInt8.self)
                guard second & 0xC0 == 0x80, third & 0xC0 == 0x80 else { return i }
                i += 3
            } else if lead &- 0xC2 < 0x1E {  // C2-DF
                guard i + 2 <= to, raw.load(fromByteOffset: i + 1, as: UInt8.self) & 0xC0 == 0x80 else { return i }
                i += 2
            } else {
                return i
            }
            if i >= to { return i }
        }
    }
}
