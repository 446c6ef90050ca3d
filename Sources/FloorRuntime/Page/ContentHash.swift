/// A 64-bit hash of a stream of bytes and words: FNV-1a for single bytes, and for runs of bytes (string
/// contents, most of a page) a word at a time with an extra shift to mix the high bits down, so that
/// hashing a page costs well under a nanosecond a byte. Deterministic across runs (so `floorhost diff`
/// answers alike every time); not a defence against crafted collisions (a page that forged one would only
/// keep a stale height until its next real change).
package struct ContentHash {
    package init() {}

    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    private static var prime: UInt64 { 0x0000_0100_0000_01b3 }

    @inline(__always) package mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* Self.prime
    }

    package mutating func add(_ bytes: some Sequence<UInt8>) { for b in bytes { add(b) } }

    /// Mixes in a word (another hash, a length).
    @inline(__always) package mutating func add(_ word: UInt64) {
        value = (value ^ word) &* 0x9E37_79B9_7F4A_7C15
        value ^= value >> 29
    }

    /// The hash of `raw` alone: a key's text, as JSONCursor.keyHash gives it.
    package static func of(raw: UnsafeRawBufferPointer) -> UInt64 {
        var hash = ContentHash()
        hash.add(raw: raw)
        return hash.value
    }

    /// Mixes in raw bytes, eight at a time, then the length.
    package mutating func add(raw: UnsafeRawBufferPointer) {
        var i = 0
        while i + 8 <= raw.count {
            add(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        while i < raw.count {
            add(raw[i])
            i += 1
        }
        add(UInt64(raw.count))
    }
}

/// An object's hash: its members combined in no particular order (a wrapping sum of mixed member hashes),
/// so that the order its keys were written in does not count.
package struct ObjectHash {
    private var sum: UInt64 = 0
    private var count: UInt64 = 0

    package init() {}

    package mutating func add(key: UInt64, value: UInt64) {
        var member = ContentHash()
        member.add(key)
        member.add(value)
        sum &+= Self.mix(member.value)
        count += 1
    }

    package var value: UInt64 {
        var h = ContentHash()
        h.add(UInt8(ascii: "{"))
        h.add(sum)
        h.add(count)
        return h.value
    }

    /// SplitMix64's finalizer: spreads each member's bits before they are summed.
    package static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
