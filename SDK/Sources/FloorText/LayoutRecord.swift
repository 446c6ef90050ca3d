/// The blocks laid out while a whole page is measured, in the order its height calculators asked for them,
/// for its drawing, which asks for the same texts in the same order: a drawn text is found at the head of
/// the record (its arguments compared in full), not in the cache, and each entry is let go once drawn. So a
/// page's measured texts are laid out once whatever their number, and what the record holds shrinks as the
/// page is drawn. Used under the engine's lock.
///
/// A drawing that draws a text its cell's height did not measure (a price) misses the record and leaves it
/// as it was; one that leaves out a text its height measured passes it: the head looks `window` entries
/// ahead, and the entries passed are let go.
struct LayoutRecord {
    private(set) var phase = TextEngine.LayoutRecording.off
    private var entries: [TextBlockCache.Entry?] = []
    private var hashes: [UInt64] = []
    private var head = 0
    /// How far past the head a drawn text is looked for: a cell that leaves out a few measured texts.
    static let window = 8

    /// Starts `phase`; `.recording` and `.off` start from an empty record.
    mutating func start(_ phase: TextEngine.LayoutRecording) {
        self.phase = phase
        guard phase != .replaying else { return }
        entries = []
        hashes = []
        head = 0
    }

    var isRecording: Bool { phase == .recording }

    mutating func append(_ entry: TextBlockCache.Entry, hash: UInt64) {
        guard isRecording else { return }
        entries.append(entry)
        hashes.append(hash)
    }

    /// The block recorded for `arguments` within `window` entries of the head, letting go of it and of the
    /// entries before it; nil (the record unchanged) when there is none.
    mutating func take(_ arguments: TextBlockCache.Arguments, hash: UInt64) -> TextBlock? {
        guard phase == .replaying else { return nil }
        var k = head
        let end = min(entries.count, head + Self.window)
        while k < end {
            if hashes[k] == hash, let entry = entries[k], entry.matches(arguments) {
                for passed in head...k { entries[passed] = nil }
                head = k + 1
                return entry.block
            }
            k += 1
        }
        return nil
    }
}
