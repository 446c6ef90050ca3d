/// Laid-out blocks by their arguments, bounded: two generations of at most `capacity` entries each; a hit
/// in the older one moves to the newer, and when the newer fills up the older is dropped. So at most
/// 2 x capacity blocks are kept, texts over `maxTextBytes` are not kept at all, and a string measured
/// again (a height calculator, then the cell drawing it) costs one hash and one lookup.
struct TextBlockCache {
    struct Key: Hashable {
        let text: [UInt8]
        let style: UInt32
        let maxWidth: UInt64
        let maxLines: Int

        /// The bytes in one bulk call (an array's own hashing feeds them one by one).
        func hash(into hasher: inout Hasher) {
            text.withUnsafeBytes { hasher.combine(bytes: $0) }
            hasher.combine(style)
            hasher.combine(maxWidth)
            hasher.combine(maxLines)
        }
    }

    let capacity: Int
    static let maxTextBytes = 4096
    private var newer: [Key: TextBlock] = [:]
    private var older: [Key: TextBlock] = [:]

    init(capacity: Int) { self.capacity = capacity }

    mutating func block(for key: Key) -> TextBlock? {
        if let hit = newer[key] { return hit }
        guard let hit = older.removeValue(forKey: key) else { return nil }
        insert(hit, for: key)
        return hit
    }

    mutating func insert(_ block: TextBlock, for key: Key) {
        guard key.text.count <= Self.maxTextBytes else { return }
        if newer.count >= capacity {
            older = newer
            newer = [:]
        }
        newer[key] = block
    }

    var count: Int { newer.count + older.count }
}
