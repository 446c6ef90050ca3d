import FloorRuntime

extension PageDiff {
    /// This diff with each item row's `item` set to its item's id, read from the two pages' content: the
    /// floors' signatures keep only the ids' hashes (FloorSignature), so the text comes from the page, and
    /// only for the rows that changed. `old` and `new` are the content of the pages the diff compared (the
    /// first page of each: `floorhost diff` compares two pages, not the next pages they link).
    ///
    /// Two different ids with equal hashes: the reload took them for one item, changed (its content hash
    /// covers the id's text, so its row was measured again). Here the ids' text tells them apart, and the row
    /// is reported as what it is: the old item's row deleted and the new item's row inserted, each with its
    /// place and the same shift below.
    package func namingItems(old: PageContent, new: PageContent) -> PageDiff {
        func id(_ place: ItemPlace?, in page: PageContent) -> String? {
            guard let place, page.floors.indices.contains(place.floor) else { return nil }
            let items = page.floors[place.floor].items
            return items.indices.contains(place.item) ? items[place.item].id : nil
        }
        var named = self
        for f in named.floors.indices {
            var rows: [RowChange] = []
            rows.reserveCapacity(named.floors[f].rows.count)
            for var row in named.floors[f].rows {
                let before = id(row.oldItem, in: old)
                let after = id(row.newItem, in: new)
                if let before, let after, before != after, row.old != nil, row.new != nil {
                    var deleted = row
                    (deleted.change, deleted.item, deleted.new, deleted.newItem) = (.deleted, before, nil, nil)
                    var inserted = row
                    (inserted.change, inserted.item, inserted.old, inserted.oldItem) = (.inserted, after, nil, nil)
                    rows += [deleted, inserted]
                    continue
                }
                row.item = row.new == nil ? before : after
                rows.append(row)
            }
            named.floors[f].rows = rows
        }
        return named
    }
}
