import FloorLayout

/// Paged rows in a session (docs/ABI.md, "Paged rows"): which page each carousel shows is part of the
/// page being looked at, so every front end (`view`'s left and right keys, the browser's swipes, arrows and
/// dots, `--tap S:R:I`) turns it here and draws the same page. It is kept by floor id and row of the floor,
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

    /// The page of row `r` that shows tappable item `item`: the shown page when its frames hold the item,
    /// else the first page whose cell reports a frame for it; for a row whose pages report no frames, page
    /// `item` (banner I on page I). Nil when the row is not paged or no page shows the item.
    public func page(showing item: Int, ofRow r: Int) -> Int? {
        let count = pageCount(ofRow: r)
        guard count > 1 else { return nil }
        let shown = page(ofRow: r)
        if adapter.reportedFrames(row: r).contains(where: { $0.item == item }) { return shown }
        var anyFrames = false
        for candidate in 0..<count where candidate != shown {
            adapter.showPage(candidate, ofRow: r)
            let frames = adapter.reportedFrames(row: r)
            anyFrames = anyFrames || !frames.isEmpty
            if frames.contains(where: { $0.item == item }) {
                adapter.showPage(shown, ofRow: r)
                return candidate
            }
        }
        adapter.showPage(shown, ofRow: r)
        return !anyFrames && item >= 0 && item < count ? item : nil
    }
}
