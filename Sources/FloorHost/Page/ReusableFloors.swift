/// The floors of a page on screen that the next version of that page may take over as they are: a reload
/// (PageSession.reload, `floorhost diff`) decodes the new version with them, and a floor whose type, `id`
/// and JSON value are unchanged keeps its plugin model and its rows instead of being decoded, expanded and
/// destroyed again. For a CMS edit of a few floors of a long page this turns the reload's plugin work from
/// O(floors) into O(floors changed).
///
/// Which floors: those of the first page that no next page extended (a merged floor's model holds more
/// than its JSON says), that decoded into a plugin model (no placeholder), and whose key (type, id) is
/// unique on the page. Each is taken at most once.
///
/// Ownership: taking a floor hands its model from the old page to the new one (the old page no longer
/// destroys it): once a page is decoded with these, the adapter must show it (Adapter.reload) and drop
/// the old one. Threading: as the adapter's.
public final class ReusableFloors {
    struct Floor {
        let page: Page
        let index: Int
        let typeID: Int32
        let whole: UInt64
        let rows: [RowTable.Expanded]
    }

    private var floors: [FloorKey: Floor] = [:]

    public init(_ adapter: Adapter) {
        let page = adapter.page
        var repeated = Set<FloorKey>()
        for s in 0..<min(page.sections.count, adapter.sections.count) {
            let section = adapter.sections[s]
            // A floor a next page extended carries both floors' signature, never equal to its own JSON's.
            guard let typeID = section.typeID, section.signature.whole == page.sections[s].signature.whole,
                  section.model == page.sections[s].model else { continue }
            let key = FloorKey(section)
            guard floors[key] == nil, !repeated.contains(key) else {
                floors[key] = nil
                repeated.insert(key)
                continue
            }
            let rows = adapter.rows(ofSection: s).map { r in
                RowTable.Expanded(index: adapter.rows[r].index, type: adapter.rows[r].type, flags: adapter.rows[r].flags)
            }
            floors[key] = Floor(page: page, index: s, typeID: typeID, whole: section.signature.whole, rows: rows)
        }
    }

    /// The floor to keep for a floor of the new version with this key, type and content, if any; it is
    /// handed over (the old page will not destroy its model).
    func take(_ key: FloorKey, typeID: Int32, whole: UInt64) -> Floor? {
        guard let floor = floors[key], floor.typeID == typeID, floor.whole == whole else { return nil }
        floors[key] = nil
        floor.page.consume(section: floor.index)
        return floor
    }
}
