/// An object schema's properties as the walk looks keys up in them (FloorSchema.property): each name's
/// length, its first eight bytes as one word, its key hash and the property's schema (unretained: the
/// object's schema holds it), with the names' bytes past the eighth kept in one buffer. A key of up to eight
/// bytes (most keys) is then matched by two compares, and its value walked against the property's schema,
/// with no reference counted: the storage is the schema's own, allocated once when the type registers and
/// freed with it (FloorSchema is immutable, so any thread may read it).
package struct PropertyKeys: @unchecked Sendable {  // written once, in init; read only after
    struct Entry {
        /// The name's first bytes (up to eight), little-endian, zeros past its end: `head(of:)` of the name.
        var head: UInt64
        var length: Int
        /// Where the name's bytes past the eighth start in `tails`.
        var tail: Int
        /// ContentHash of the name, as JSONCursor.keyHash gives a key.
        var hash: UInt64
        /// The property's schema, held by the FloorSchema these keys are part of (`propertySchemas`).
        var schema: Unmanaged<FloorSchema>
        /// Whether the name is `id` (a floor item's identity: FloorWalk's `capturingID`).
        var isID: Bool
    }

    let entries: UnsafeMutableBufferPointer<Entry>
    let tails: UnsafeMutableBufferPointer<UInt8>

    /// `schemas`: the properties' schemas, by the same index, which the caller keeps while these keys are read.
    init(_ names: [[UInt8]], schemas: ContiguousArray<FloorSchema>) {
        entries = .allocate(capacity: names.count)
        tails = .allocate(capacity: names.reduce(0) { $0 + max(0, $1.count - 8) })
        var tail = 0
        for (i, name) in names.enumerated() {
            let head = name.withUnsafeBytes { Self.head(of: $0.baseAddress, count: $0.count, readable: $0.count) }
            let hash = name.withUnsafeBytes(ContentHash.of(raw:))
            entries.initializeElement(
                at: i,
                to: Entry(
                    head: head, length: name.count, tail: tail, hash: hash, schema: .passUnretained(schemas[i]),
                    isID: name == Array("id".utf8)))
            for byte in name.dropFirst(8) {
                tails.initializeElement(at: tail, to: byte)
                tail += 1
            }
        }
    }

    /// Frees the storage (FloorSchema's deinit: once, when nothing reads it any more).
    func deallocate() {
        entries.deallocate()
        tails.deallocate()
    }

    var count: Int { entries.count }

    /// The first `min(count, 8)` bytes at `start` as a little-endian word, zeros after them. `readable`: how
    /// many bytes from `start` may be read (a whole word is loaded when eight may).
    @inline(__always)
    static func head(of start: UnsafeRawPointer?, count: Int, readable: Int) -> UInt64 {
        guard let start, count > 0 else { return 0 }
        if readable >= 8 {
            let word = UInt64(littleEndian: start.loadUnaligned(as: UInt64.self))
            return count >= 8 ? word : word & ((1 << UInt64(count * 8)) &- 1)
        }
        var word: UInt64 = 0
        for i in 0..<min(count, 8) { word |= UInt64(start.load(fromByteOffset: i, as: UInt8.self)) << UInt64(i * 8) }
        return word
    }

    /// The index of the property whose name is the `count` bytes at `key` (`head`: their `head(of:)`), or
    /// nil. `expected` is tried first: an object's members usually come in the order its schema lists them,
    /// so a walk that passes the index after the last member's finds most keys at the first compare.
    @inline(__always)
    func index(of key: UnsafeRawPointer, count: Int, head: UInt64, expected: Int) -> Int? {
        if expected < entries.count, matches(entries[expected], key, count, head) { return expected }
        for i in 0..<entries.count where matches(entries[i], key, count, head) { return i }
        return nil
    }

    @inline(__always)
    private func matches(_ entry: Entry, _ key: UnsafeRawPointer, _ count: Int, _ head: UInt64) -> Bool {
        guard entry.head == head, entry.length == count else { return false }
        guard count > 8 else { return true }
        for k in 8..<count where tails[entry.tail + k - 8] != key.load(fromByteOffset: k, as: UInt8.self) {
            return false
        }
        return true
    }
}
