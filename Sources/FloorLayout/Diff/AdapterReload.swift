import FloorRuntime

extension Adapter {
    /// Shows a new version of the page: `pages` are the first page and the next pages to merge into it,
    /// freshly decoded (PageSession.reload reads them). The new rows are paired with the rows on screen
    /// (PageMatch: floors by type and id, rows by item id; Heckel's algorithm), and the rows that show what
    /// they showed keep their cached heights at every width, so that only inserted and updated rows are
    /// measured (`stats.heightCalls` grows by exactly `rowsMeasured`, `stats.heightsKept` by `rowsKept`).
    /// The adapter is the same object afterwards, holding the new pages; the old ones are released.
    /// Cost: O(floors + rows) host work, one expand per floor, one height call per changed row.
    /// The load-state footer is not content: it leaves before the pairing and comes back last, unmeasured,
    /// so the diff speaks of floors' rows only.
    @discardableResult
    public func reload(_ pages: [Page]) -> PageDiff {
        precondition(!pages.isEmpty, "a reload needs the first page")
        let fresh = Adapter(unmeasured: pages, registry: registry, width: width, dispatch: dispatch)
        let hadFooter = removeFooter()
        let before = laidOut
        let match = PageMatch(old: before, new: fresh.laidOut)
        let heights = match.heights(from: before.rows.forgettingUnusable(before.rows.heights))
        let otherWidths = heightsByOtherWidth.mapValues { match.heights(from: before.rows.forgettingUnusable($0)) }
        adopt(fresh, heights: heights, otherWidths: otherWidths)
        let diff = PageDiff(old: before, new: laidOut, match: match, registry: registry)
        if hadFooter { restoreFooter() }
        stats.reloads += 1
        stats.heightsKept += diff.rowsKept
        return diff
    }
}
