import FloorLayout

/// Paged rows in a session (docs/ABI.md, "Paged rows"): which page each carousel shows is part of the
/// page being looked at, so every front end (`view`'s left and right keys, the browser's swipes, arrows and
/// dots) turns it here and draws the same page. It is kept by floor id and row of the floor,
/// so it stays across next pages and reloads (Adapter.shownPages). Turning a page looks at the screen again:
/// a banner that comes into view counts as an impression of its own.
extension PageSession {
    /// How many pages row `r` (a page-wide row index) has: 1 when it is not paged.
    public func pageCount(ofRow r: Int) -> Int {
        guard r >= 0, r < adapter.rowCount else { return 1 }
        return adapter.pageCount(ofRow: r)
    }

    /// The page row `r` shows, 0-based.
    public func page(ofRow r: Int) -> Int {
        guard r >= 0, r < adapter.rowCount else { return 0 }
        return adapter.page(ofRow: r)
    }

    /// Shows page `page` of row `r`, clamped to its pages, and returns the page shown. A row that is not
    /// paged stays on page 0.
    @discardableResult
    public func showPage(_ page: Int, ofRow r: Int) -> Int {
        guard r >= 0, r < adapter.rowCount else { return 0 }
        let shown = adapter.showPage(page, ofRow: r)
        observeImpressions()
        return shown
    }

    /// Turns row `r` by `delta` pages (-1: the previous one, 1: the next), wrapping around at either end as
    /// a carousel does; returns the page shown.
    @discardableResult
    public func turnPage(by delta: Int, ofRow r: Int) -> Int {
        let count = pageCount(ofRow: r)
        guard count > 1 else { return 0 }
        let next = ((page(ofRow: r) + delta) % count + count) % count
        return showPage(next, ofRow: r)
    }
}
