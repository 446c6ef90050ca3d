/// SplitMix64: a tiny deterministic generator, the same sequence on every machine, so that `conform
/// --fuzz --reproduce SEED` and the randomized tests check the same cases again from their seed.
package struct SeededRandom: RandomNumberGenerator {
    package var state: UInt64

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    package mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    package mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    package mutating func pick<T>(_ options: [T]) -> T { options[int(0...(options.count - 1))] }

    package init(state: UInt64) {
        self.state = state
    }
}
