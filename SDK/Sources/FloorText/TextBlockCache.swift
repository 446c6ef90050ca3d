import Glibc

/// Laid-out blocks by their arguments, bounded: two generations of at most `capacity` entries each; a hit
/// in the older one moves to the newer, and when the newer fills up the older is dropped. So at most
/// 2 x capacity blocks are kept, texts over `maxTextBytes` are not kept at all, and a string measured
/// again (a height calculator, then the cell drawing it) costs a hash of its bytes, a lookup and a compare,
/// with no allocation. Entries are found by a 64-bit hash of the arguments and compared in full; of two
/// arguments that share a hash the first is kept and the second laid out every time (correct, only slower).
struct TextBlockCache {
    /// What a block was laid out from.
    struct Arguments {
        let text: UnsafeRawBufferPointer
        let style: UInt32
        let maxWidth: UInt64
        let maxLines: Int

        var hash: UInt64 {
            var h = TextHash.bytes(text)
            h = TextHash.mix(h ^ UInt64(style))
            h = TextHash.mix(h ^ maxWidth)
            return TextHash.mix(h ^ UInt64(bitPattern: Int64(maxLines)))
        }
    }

    /// A block with the arguments it was laid out from (the text's bytes kept once: the block's own copy of
    /// valid UTF-8 is the arguments' text).
    struct Entry {
        let text: [UInt8]
        let style: UInt32
        let maxWidth: UInt64
        let maxLines: Int
        let block: TextBlock

        init(_ block: TextBlock, for a: Arguments) {
            let text = block.utf8.flatMap { utf8 in
                utf8.count == a.text.count
                    && utf8.withUnsafeBytes {
                        a.text.isEmpty || memcmp($0.baseAddress!, a.text.baseAddress!, a.text.count) == 0
                    }
                    ? utf8 : nil
            }
            self.text = text ?? Array(a.text)
            style = a.style
            maxWidth = a.maxWidth
            maxLines = a.maxLines
            self.block = block
        }

        func matches(_ a: Arguments) -> Bool {
            guard style == a.style, maxWidth == a.maxWidth, maxLines == a.maxLines, text.count == a.text.count else {
                return false
            }
            return text.withUnsafeBytes { mine in
                a.text.isEmpty || memcmp(mine.baseAddress!, a.text.baseAddress!, a.text.count) == 0
            }
        }
    }

    let capacity: Int
    static let maxTextBytes = 4096
    private var newer: [UInt64: Entry]
    private var older: [UInt64: Entry] = [:]

    /// Each newer generation is sized for `capacity` when it starts (up to `presized`), so filling it
    /// rehashes seldom (one grown from empty rehashed at every doubling).
    init(capacity: Int) {
        self.capacity = capacity
        newer = Dictionary(minimumCapacity: min(capacity, Self.presized))
    }

    /// The most entries a generation is allocated for before it holds them.
    private static let presized = 8192

    /// The last block inserted without keeping it (`insert(keep: false)`), found after the generations.
    private var unkept: (hash: UInt64, entry: Entry)?

    mutating func block(for arguments: Arguments, hash: UInt64) -> TextBlock? {
        if let hit = newer[hash] { return hit.matches(arguments) ? hit.block : nil }
        if let hit = older.removeValue(forKey: hash) {
            store(hit, hash: hash)
            return hit.matches(arguments) ? hit.block : nil
        }
        if let unkept, unkept.hash == hash, unkept.entry.matches(arguments) { return unkept.entry.block }
        return nil
    }

    /// Keeps `block` for its arguments; with `keep` false only until the next block inserted so (a text
    /// drawn once, which the drawing cell may measure right after, as a card its price).
    mutating func insert(_ block: TextBlock, for a: Arguments, hash: UInt64, keep: Bool = true) {
        guard a.text.count <= Self.maxTextBytes, newer[hash] == nil else { return }
        let entry = Entry(block, for: a)
        if keep { store(entry, hash: hash) } else { unkept = (hash, entry) }
    }

    private mutating func store(_ entry: Entry, hash: UInt64) {
        if newer.count >= capacity {
            older = newer
            newer = Dictionary(minimumCapacity: min(capacity, Self.presized))
        }
        newer[hash] = entry
    }

    var count: Int { newer.count + older.count }
}
