/// Advances of short pieces of text already shaped, by face and text, in font units (so every size of a
/// face shares them): real text repeats its words (product titles, prices, CJK characters), and a piece
/// looked up here costs a hash of its UTF-16 units instead of a HarfBuzz call. Bounded: two generations
/// of at most `capacity` pieces, pieces of at most `maxUnits` units. A hash that two different pieces share
/// keeps the first; the second is shaped every time (correct, only slower). Used under the engine's lock.
struct ShapedPieces {
    struct Entry {
        let face: Int
        let units: [UInt16]
        /// One per unit: a cluster's advance on its first unit, 0 on the rest.
        let advances: [Int32]
    }

    static let maxUnits = 32
    let capacity: Int
    private var newer: [UInt64: Entry] = [:]
    private var older: [UInt64: Entry] = [:]

    init(capacity: Int) { self.capacity = capacity }

    /// FNV-1a over the face and the units.
    static func key(face: Int, _ units: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(face)
        for i in start..<end {
            hash = (hash ^ UInt64(units[i])) &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    mutating func find(_ key: UInt64, face: Int, _ units: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int)
        -> Entry?
    {
        func same(_ entry: Entry) -> Bool {
            guard entry.face == face && entry.units.count == end - start else { return false }
            var i = 0
            while i < end - start {
                if entry.units[i] != units[start + i] { return false }
                i += 1
            }
            return true
        }
        if let entry = newer[key] { return same(entry) ? entry : nil }
        guard let entry = older.removeValue(forKey: key) else { return nil }
        insert(entry, for: key)
        return same(entry) ? entry : nil
    }

    mutating func insert(_ entry: Entry, for key: UInt64) {
        if newer[key] != nil { return }
        if newer.count >= capacity {
            older = newer
            newer = [:]
        }
        newer[key] = entry
    }
}
