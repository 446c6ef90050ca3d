/// A floor's identity across two versions of a page: its type and `id`. A floor without an `id` is known
/// by its content, so it is "the same floor" only while unchanged (edited, it is deleted and inserted).
/// Two floors of one page with the same type and id (a duplicate the decoder warns about) share a key, so
/// neither is an anchor of Heckel's algorithm (ListDiff): each is kept only when a neighbour leads to it.
package struct FloorKey: Hashable {
    package let type: String
    package let id: String?
    package let content: UInt64

    package init(_ section: Page.Section) {
        self.init(type: section.floorType, id: section.hasID ? section.floorID : nil, whole: section.signature.whole)
    }

    /// `id` nil: the floor has none, and is known by `whole`.
    package init(type: String, id: String?, whole: UInt64) {
        self.type = type
        self.id = id
        content = id == nil ? whole : 0
    }
}
