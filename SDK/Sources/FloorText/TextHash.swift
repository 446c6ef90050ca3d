/// A fast 64-bit hash of bytes for the engine's caches (not for anything an attacker could exploit: a
/// collision only costs a layout, see TextBlockCache): eight bytes a step, each step a multiply and a
/// xor-shift (the mixer of SplitMix64).
enum TextHash {
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    static func bytes(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h = UInt64(bytes.count)
        var i = 0
        let count = bytes.count
        while i + 8 <= count {
            h = mix(h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        if i < count {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < count {
                tail |= UInt64(bytes[i]) << shift
                shift += 8
                i += 1
            }
            h = mix(h ^ tail)
        }
        return h
    }
}
