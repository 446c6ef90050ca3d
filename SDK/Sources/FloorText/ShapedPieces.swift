import Glibc

/// Advances of short pieces of text already shaped, by face and text, in font units (so every size of a
/// face shares them): real text repeats its words (product titles, prices, CJK characters), and a piece
/// looked up here costs a hash of its UTF-16 units, a probe and a compare instead of a HarfBuzz call.
///
/// Bounded: at most `capacity` pieces of at most `maxUnits` units, `unitsPerPiece` units on average, in
/// memory allocated once (an open addressing table of twice as many slots, and pools the pieces' units and
/// advances are packed into, one after another); when either is full it is emptied and fills again with
/// what is shaped next. Packed, not `maxUnits` apart: pieces are words, a few units each, and slots of 32
/// made this 3.7 MB of every process that lays text out (BENCHMARKS.md, "Peak memory of the json render").
/// Raw memory, so the per-piece work pays no reference counting or exclusivity check. Used under the
/// engine's lock.
final class ShapedPieces {
    static let maxUnits = 32
    static let unitsPerPiece = 12
    let capacity: Int
    private let slotCount: Int
    private let poolSize: Int
    /// By slot: the piece's hash (0: empty) and its entry number.
    private let slotHash: UnsafeMutablePointer<UInt64>
    private let slotEntry: UnsafeMutablePointer<Int32>
    /// Whether `slotHash` is a mapping of its own (else allocated).
    private let tableMapped: Bool
    /// By entry: its face, unit count, and where its units and advances start in the pools.
    private let entryFace: UnsafeMutablePointer<Int32>
    private let entryCount: UnsafeMutablePointer<Int32>
    private let entryStart: UnsafeMutablePointer<Int32>
    private let units: UnsafeMutablePointer<UInt16>
    private let advances: UnsafeMutablePointer<Int32>
    private(set) var count = 0
    /// Units of the pools in use.
    private var used = 0

    init(capacity: Int) {
        self.capacity = capacity
        var slots = 1
        while slots < 2 * capacity { slots <<= 1 }
        slotCount = slots
        poolSize = capacity * Self.unitsPerPiece
        // Zero pages of the kernel's, which take memory only as pieces land on them: a process that shapes
        // a few hundred words keeps a few pages of the 256 KB table, not all of it (BENCHMARKS.md, issue 23).
        // An entry is read only where its slot's hash was set with it, so it needs no zeros.
        let table = mmap(
            nil, slots * MemoryLayout<UInt64>.stride, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        if let table, table != MAP_FAILED {
            slotHash = table.bindMemory(to: UInt64.self, capacity: slots)
        } else {
            slotHash = .allocate(capacity: slots)
            slotHash.initialize(repeating: 0, count: slots)
        }
        tableMapped = table != nil && table != MAP_FAILED
        slotEntry = .allocate(capacity: slots)
        entryFace = .allocate(capacity: capacity)
        entryCount = .allocate(capacity: capacity)
        entryStart = .allocate(capacity: capacity)
        units = .allocate(capacity: poolSize)
        advances = .allocate(capacity: poolSize)
    }

    deinit {
        if tableMapped { munmap(slotHash, slotCount * MemoryLayout<UInt64>.stride) } else { slotHash.deallocate() }
        slotEntry.deallocate()
        entryFace.deallocate()
        entryCount.deallocate()
        entryStart.deallocate()
        units.deallocate()
        advances.deallocate()
    }

    /// FNV-1a over the face and the units, never 0 (0 marks an empty slot).
    static func key(face: Int, _ units: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bitPattern: Int64(face))
        for i in start..<end {
            hash = (hash ^ UInt64(units[i])) &* 0x0000_0100_0000_01b3
        }
        return hash == 0 ? 1 : hash
    }

    /// The advances of units start..<end in `face` (one per unit: a cluster's advance on its first unit, 0
    /// on the rest), if that piece was shaped before; valid until the next `insert`.
    func find(_ key: UInt64, face: Int, _ text: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int)
        -> UnsafePointer<Int32>?
    {
        let length = end - start
        var slot = Int(truncatingIfNeeded: key) & (slotCount - 1)
        while slotHash[slot] != 0 {
            if slotHash[slot] == key {
                let entry = Int(slotEntry[slot])
                if entryFace[entry] == Int32(face) && Int(entryCount[entry]) == length {
                    let mine = units + Int(entryStart[entry])
                    var i = 0
                    while i < length && mine[i] == text[start + i] { i += 1 }
                    if i == length { return UnsafePointer(advances + Int(entryStart[entry])) }
                }
            }
            slot = (slot + 1) & (slotCount - 1)
        }
        return nil
    }

    /// Keeps the advances of units start..<end (at most `maxUnits`) in `face`.
    func insert(
        _ key: UInt64, face: Int, _ text: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int,
        advances shaped: UnsafePointer<Int32>
    ) {
        let length = end - start
        guard length <= Self.maxUnits else { return }
        if count >= capacity || used + length > poolSize {
            slotHash.update(repeating: 0, count: slotCount)
            count = 0
            used = 0
        }
        let entry = count
        count += 1
        entryFace[entry] = Int32(face)
        entryCount[entry] = Int32(length)
        entryStart[entry] = Int32(used)
        for i in 0..<length {
            units[used + i] = text[start + i]
            advances[used + i] = shaped[i]
        }
        used += length
        var slot = Int(truncatingIfNeeded: key) & (slotCount - 1)
        while slotHash[slot] != 0 { slot = (slot + 1) & (slotCount - 1) }
        slotHash[slot] = key
        slotEntry[slot] = Int32(entry)
    }
}
