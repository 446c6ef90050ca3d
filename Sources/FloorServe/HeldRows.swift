import FloorRuntime

/// The rows a tab holds, as it reports them with each view (`"held":{"<index>":"<tag>",...}` for the rows
/// of its screen, `"pinned":{"index","tag"}` for the pinned row it shows), and the tag that names what a
/// row draws.
///
/// The contract (ViewUpdate): each row of an answer carries `tag`, a hash of the bytes that draw it (its
/// `tappable`, `frames` and `html`, as the answer writes them). A row the tab reports holding with the tag
/// it has now is sent as its position alone (`index`, `y`, `height`, `tag`); any other row is sent whole.
/// The tab says what it holds, rather than the server remembering what it sent: the tab drops rows more
/// than a screen away, and an answer it discards (one from before a device switch) never reached its DOM.
/// A row that did not change across layout versions (a next page appended below it, a reload of another
/// floor) keeps its tag and is not sent again; a row that moved draws its `top` and index into its html,
/// so it is sent again. A tab that reports nothing (a first view, a device switch) gets every row whole.
/// The pinned row is left out when the tab shows it pinned or holds it as a row under its tag; a row of
/// the screen only when the tab holds it as a row (the pinned copy has no frames to draw it from).
public struct HeldRows: Codable, Sendable, Equatable {
    public struct Pinned: Codable, Sendable, Equatable {
        public var index: Int
        public var tag: String
    }
    public var rows: [Int: String]
    public var pinned: Pinned?

    public init(_ rows: [Int: String] = [:], pinned: Pinned? = nil) {
        self.rows = rows
        self.pinned = pinned
    }

    package var isEmpty: Bool { rows.isEmpty && pinned == nil }

    /// Whether the tab holds row `index` drawn as `tag` draws it, as a row of its screen.
    package func holds(_ index: Int, as tag: String) -> Bool { rows[index] == tag }

    /// Whether the tab can draw row `index` pinned as `tag` draws it.
    package func holdsPinned(_ index: Int, as tag: String) -> Bool {
        pinned == Pinned(index: index, tag: tag) || holds(index, as: tag)
    }

    /// The tag of a row's bytes: FNV-1a, 64 bits, in hexadecimal. A tab holding a row under another
    /// version's tag gets it again unless the bytes are the same; two different rows at one index agreeing
    /// on 64 bits of hash is the only way a stale row could stay, and that is left to chance (2^-64).
    package static func tag(of bytes: some Sequence<UInt8>) -> String {
        var hash = ContentHash()
        hash.add(bytes)
        return String(hash.value, radix: 16)
    }
}
