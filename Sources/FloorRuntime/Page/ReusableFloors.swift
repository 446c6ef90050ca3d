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
    package struct Floor {
        package let page: Page
        package let index: Int
        package let typeID: Int32
        package let whole: UInt64
        package let rows: [ExpandedRow]

        package init(page: Page, index: Int, typeID: Int32, whole: UInt64, rows: [ExpandedRow]) {
            (self.page, self.index, self.typeID, self.whole, self.rows) = (page, index, typeID, whole, rows)
        }
    }

    private var floors: [FloorKey: Floor] = [:]

    /// `candidates`: each floor of the page on screen that may be taken over, with its key. A key that
    /// occurs twice is no one's: neither floor is taken.
    package init(_ candidates: [(key: FloorKey, floor: Floor)]) {
        var repeated = Set<FloorKey>()
        for (key, floor) in candidates {
            guard floors[key] == nil, !repeated.contains(key) else {
                floors[key] = nil
                repeated.insert(key)
                continue
            }
            floors[key] = floor
        }
    }

    /// The floor to keep for a floor of the new version with this key, type and content, if any; it is
    /// handed over (the old page will not destroy its model).
    package func take(_ key: FloorKey, typeID: Int32, whole: UInt64) -> Floor? {
        guard let floor = floors[key], floor.typeID == typeID, floor.whole == whole else { return nil }
        floors[key] = nil
        floor.page.consume(section: floor.index)
        return floor
    }
}
