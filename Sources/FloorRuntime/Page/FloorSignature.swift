import FloorCore

/// What the host knows of a floor's content from its JSON alone: enough to tell, across two versions of a
/// page, which floors and which of their items stayed the same (PageDiff), without asking a plugin and
/// without changing the C ABI. Computed once, on the page scanner's walk of the floor (FloorWalk), in
/// O(bytes of the floor).
///
/// Contract:
/// - Hashes are of the JSON *values*: whitespace, the order of an object's keys and how a string is
///   escaped (`"\/"` or `"/"`) change nothing, so a CMS that re-serializes a page does not make it all new;
///   any other edit (a value; a number written differently, 59.9 or 59.90) is a change. Equal hashes are
///   taken as equal content (64-bit: a collision is ~2^-64 a pair).
/// - `items` is the floor's `items` array when it is an array (the last one when the key repeats), each
///   element with its identity: the hash of its `id` (a string's text, or an integer's as written) when it
///   has one, else its content hash (an item without an id is "the same item" only while it is unchanged).
///   The id's text is not kept (43,000 of them in the 8 MB benchmark page): whoever names an item reads it
///   from the page's content (PageContent; PageDiff.namingItems).
/// - Two different ids whose hashes are equal (~2^-64 a pair) are taken as one item's: its content hash,
///   which covers the id's text, still differs, so the row is measured again, never shown with the other's
///   height; a reload calls it updated rather than deleted and inserted (`floorhost diff` compares the ids'
///   text and says deleted and inserted: PageDiff.namingItems), and a next page's item whose id collides
///   with one already in its floor is dropped from the signature, so the floor's rows stop matching its
///   items one for one and are paired as a floor without item rows (RowIdentity): measured again on a
///   change, not kept wrongly.
/// - `own` covers every member but `items`, `header` and `margin` (the common fields whose rows ARCHITECTURE.md
///   defines: header row, margin rows), so that an edit of the header does not make every item "changed".
/// - A floor that is not an object has only `whole`.
public struct FloorSignature: Sendable, Equatable {
    /// An item's identity within its floor.
    public enum ItemKey: Hashable, Sendable {
        /// Its id's hash (`idHash`).
        case id(UInt64)
        case anonymous(UInt64)
    }

    /// 16 bytes: the id's hash and the content's (the id as a String took 24 bytes an item, 32 as an
    /// `ItemKey`: 1.0 MB of the 8 MB page's 43,000; BENCHMARKS.md, issue 23).
    public struct Item: Sendable, Equatable {
        /// The hash of the item's `id` (`FloorSignature.idHash`); 0 when it has none.
        public var id: UInt64
        public var content: UInt64

        public var hasID: Bool { id != 0 }
        /// Its identity: its id, else its content.
        public var key: ItemKey { hasID ? .id(id) : .anonymous(content) }

        package init(id: UInt64, content: UInt64) {
            self.id = id
            self.content = content
        }
    }

    /// The hash an item's `id` is known by: of its text's UTF-8 (a string's, escapes resolved; an integer's
    /// digits as written). Never 0, which means "no id".
    public static func idHash(_ utf8: UnsafeRawBufferPointer) -> UInt64 {
        idHash(textHash: ContentHash.of(raw: utf8))
    }

    /// The id hash of a text whose ContentHash is `textHash` (a key's hash, JSONCursor.keyHash).
    static func idHash(textHash: UInt64) -> UInt64 { textHash == 0 ? 1 : textHash }

    public static func idHash(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { idHash(UnsafeRawBufferPointer($0)) }
    }

    /// The whole floor object.
    public var whole: UInt64
    /// The floor without `items`, `header` and `margin`.
    public var own: UInt64
    /// `header` and `margin` (0 when absent).
    public var header: UInt64
    public var margin: UInt64
    public var items: [Item]

    public init(whole: UInt64 = 0, own: UInt64 = 0, header: UInt64 = 0, margin: UInt64 = 0, items: [Item] = []) {
        self.whole = whole
        self.own = own
        self.header = header
        self.margin = margin
        self.items = items
    }

    /// The signature of one floor value; `bytes` must be valid JSON (the page scanner validated it). The
    /// page scanner computes each floor's signature on its own walk (FloorWalk); this is for a floor alone.
    public init(json bytes: UnsafeRawBufferPointer) {
        self.init()
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        JSONWalkLog.record(base, count: bytes.count, "FloorSignature(json:)")
        var walk = FloorWalk(JSONCursor(base, count: bytes.count, skippingBOM: false))
        walk.cursor.skipWhitespace()
        guard walk.cursor.pos < bytes.count, let floor = try? walk.floor(index: 0, schemas: { _ in nil }) else {
            return
        }
        self = floor.signature
    }

    /// A floor continued by a next page's floor of the same id (Adapter.append): the next floor's items
    /// follow, except those whose id is already there (dropped, as ARCHITECTURE.md's "Pages" says); the rest of
    /// the content is both floors'.
    package func extended(by next: FloorSignature) -> FloorSignature {
        var merged = self
        var present = Set(items.lazy.filter(\.hasID).map(\.id))
        for item in next.items {
            if item.hasID, !present.insert(item.id).inserted { continue }
            merged.items.append(item)
        }
        var whole = ContentHash()
        whole.add(self.whole)
        whole.add(next.whole)
        merged.whole = whole.value
        return merged
    }
}
