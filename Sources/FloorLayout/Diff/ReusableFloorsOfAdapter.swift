import FloorRuntime

extension ReusableFloors {
    /// The floors of `adapter`'s page that a new version of it may take over (see ReusableFloors).
    public convenience init(_ adapter: Adapter) {
        let page = adapter.page
        var candidates: [(key: FloorKey, floor: Floor)] = []
        for s in 0..<min(page.sections.count, adapter.sections.count) {
            let section = adapter.sections[s]
            // A floor a next page extended carries both floors' signature, never equal to its own JSON's.
            guard let typeID = section.typeID, section.signature.whole == page.sections[s].signature.whole,
                section.model == page.sections[s].model
            else { continue }
            let rows = adapter.rows(ofSection: s).map { r in
                ExpandedRow(index: adapter.rows[r].index, type: adapter.rows[r].type, flags: adapter.rows[r].flags)
            }
            candidates.append(
                (
                    FloorKey(section),
                    Floor(page: page, index: s, typeID: typeID, whole: section.signature.whole, rows: rows)
                ))
        }
        self.init(candidates)
    }
}
