import Glibc

/// Laid-out blocks by their arguments, bounded: two generations of at most `capacity` entries each; a hit
/// in the older one moves to the newer, and when the newer fills up the older is dropped. So at most
/// 2 x capacity blocks are kept, texts over `maxTextBytes` are not kept at all, and a text laid out
/// again (a cell drawn again as a screen scrolls) costs a hash of its bytes, a lookup and a compare, with no
/// allocation. Entries are found by a 64-bit hash of the arguments and compared in full; of two
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

    /// A block with the arguments it was laid out from (the text's bytes kept once: an engine block's own
    /// copy of valid UTF-8 is the arguments' text).
    struct Entry {
        /// The arguments' text when the block does not hold it (a block of no lines, or of invalid UTF-8).
        private let text: [UInt8]?
        let style: UInt32
        let maxWidth: UInt64
        let maxLines: Int
        let block: TextBlock

        init(_ block: TextBlock, for a: Arguments) {
            text = block.withUTF8 { Self.equal($0, a.text) } == true ? nil : Array(a.text)
            style = a.style
            maxWidth = a.maxWidth
            maxLines = a.maxLines
            self.block = block
        }

        func matches(_ a: Arguments) -> Bool {
            guard style == a.style, maxWidth == a.maxWidth, maxLines == a.maxLines else { return false }
            if let text { return text.withUnsafeBytes { Self.equal($0, a.text) } }
            return block.withUTF8 { Self.equal($0, a.text) } ?? false
        }

        private static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
            a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
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
    private var unkept: Entry?

    /// The block kept for `arguments`. The arguments are hashed only when a generation holds a block (a
    /// process that keeps none, such as a one-shot render, compares the last block alone).
    mutating func block(for arguments: Arguments) -> TextBlock? {
        if !newer.isEmpty || !older.isEmpty {
            let hash = arguments.hash
            if let hit = newer[hash] { return hit.matches(arguments) ? hit.block : nil }
            if let hit = older.removeValue(forKey: hash) {
                store(hit, hash: hash)
                return hit.matches(arguments) ? hit.block : nil
            }
        }
        // Read in place (an `if let` copied the entry, and released the copy: 16 M instructions of the text preview).
        return unkept?.matches(arguments) == true ? unkept?.block : nil
    }

    /// Keeps `block` for its arguments; with `keep` false only until the next block inserted so (a text
    /// drawn once, which the drawing cell may measure right after, as a card its price).
    mutating func insert(_ block: TextBlock, for a: Arguments, keep: Bool = true) {
        guard a.text.count <= Self.maxTextBytes else { return }
        guard keep else {
            unkept = Entry(block, for: a)
            return
        }
        let hash = a.hash
        guard newer[hash] == nil else { return }
        store(Entry(block, for: a), hash: hash)
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
