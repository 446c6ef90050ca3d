#if !hasFeature(Embedded)
import Synchronization
#endif

/// The memory of a tape's nodes (JSONTape), in blocks that know their capacity, and one block kept from one
/// parse to the next. A floor's tape is hundreds of KB (20 bytes a node, a node every ~9 bytes of JSON),
/// which malloc maps afresh for each floor and the kernel zero-fills page by page: 3,000 first touches of a
/// page on the 8 MB benchmark page, ~1.4 µs each on a VM (BENCHMARKS.md, issue 23).
///
/// The block last given back is kept when it is at most `keptBytes` (a page of huge floors keeps nothing
/// between them); taking and giving are atomic exchanges, so parses on several threads each take the block
/// or allocate their own. A block is kept while the host decodes a page's floors one after another: the
/// plugin's first expand after them lets it go (`letGo`), so it is not held through the page's layout and
/// drawing (the json render's peak memory). Under Embedded Swift (WebAssembly floors) nothing is kept.
final class NodeBlocks: Sendable {
    /// What every tape of this copy of the SDK (this plugin) allocates from.
    static let shared = NodeBlocks()

    /// The largest block kept between parses.
    static let keptBytes = 1 << 20

    /// A block's header, before its nodes: its capacity in nodes.
    private static let header = 16

    #if !hasFeature(Embedded)
    /// The kept block's address, 0 for none.
    private let kept = Atomic<UInt>(0)
    #endif

    /// A block of about `capacity` nodes, uninitialized (`capacity(of:)` says how many): the kept block when
    /// it holds at least half as many (a parse's estimate is generous, and the tape grows a block that
    /// falls short), else a new one.
    func allocate(capacity: Int) -> UnsafeMutablePointer<JSONTape.Node> {
        if let kept = take() {
            if Self.capacity(of: kept) >= capacity / 2 { return kept }
            Self.free(kept)
        }
        return Self.allocateNew(capacity: capacity)
    }

    /// Done with `block` (its nodes need no deinitializing: they hold no references): kept for the next
    /// parse when small enough, else freed; a block kept before is freed.
    func give(_ block: UnsafeMutablePointer<JSONTape.Node>) {
        #if !hasFeature(Embedded)
        guard Self.capacity(of: block) * MemoryLayout<JSONTape.Node>.stride <= Self.keptBytes else {
            return Self.free(block)
        }
        let previous = kept.exchange(UInt(bitPattern: block), ordering: .acquiringAndReleasing)
        if let old = UnsafeMutablePointer<JSONTape.Node>(bitPattern: previous) { Self.free(old) }
        #else
        Self.free(block)
        #endif
    }

    /// Frees the kept block, if any: the decoding is over for now.
    func letGo() {
        if let kept = take() { Self.free(kept) }
    }

    private func take() -> UnsafeMutablePointer<JSONTape.Node>? {
        #if !hasFeature(Embedded)
        UnsafeMutablePointer(bitPattern: kept.exchange(0, ordering: .acquiringAndReleasing))
        #else
        nil
        #endif
    }

    static func allocateNew(capacity: Int) -> UnsafeMutablePointer<JSONTape.Node> {
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: header + capacity * MemoryLayout<JSONTape.Node>.stride, alignment: header)
        raw.storeBytes(of: capacity, as: Int.self)
        return (raw + header).bindMemory(to: JSONTape.Node.self, capacity: capacity)
    }

    static func capacity(of block: UnsafeMutablePointer<JSONTape.Node>) -> Int {
        (UnsafeMutableRawPointer(block) - header).load(as: Int.self)
    }

    static func free(_ block: UnsafeMutablePointer<JSONTape.Node>) {
        (UnsafeMutableRawPointer(block) - header).deallocate()
    }
}
