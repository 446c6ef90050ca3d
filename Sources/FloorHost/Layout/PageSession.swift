import Foundation

/// A page being viewed: the adapter, a viewport scrolled over it, and the next pages load-more fetches
/// (the seed's KCBaseAdapter with its pull-up delegate and FZLoadDataPresenter). Everything that happens
/// is appended to `events`.
///
/// Loads are delivered right after they are requested unless `deliversLoadsImmediately` is false; then a
/// load stays in flight until `deliverLoad()`, so tests can scroll while a page is being fetched.
/// Threading: one thread at a time.
public final class PageSession: @unchecked Sendable {
    public let adapter: Adapter
    public private(set) var viewport: Viewport
    public private(set) var events: [Event] = []
    /// How many stops scrolling one screen at a time (`scroll(toward:)`, `scrollToEnd`) has made: the work
    /// those scrolls cost, which tests hold proportional to rows.
    public private(set) var scrollStops = 0
    public private(set) var loadMore: LoadMore
    public var deliversLoadsImmediately: Bool
    /// Automatic retries of a failed load (`--retry N`).
    public let retries: Int

    let source: PageSource
    /// The next page to load, resolved against the page that named it; nil at the end.
    public private(set) var next: String?
    /// The page whose `next` named `next`, and the link as written: what a refusal names.
    private var nextLink: (page: String, link: String)?
    private var displayed = Set<Int>()
    private var trigger: Int?
    private var failures: [String: Int] = [:]

    public init(adapter: Adapter, viewportHeight: Double, source: PageSource, distance: Int = 4, retries: Int = 0,
                deliversLoadsImmediately: Bool = true) {
        self.adapter = adapter
        self.source = source.rooted(at: adapter.page.file)
        self.retries = max(0, retries)
        self.deliversLoadsImmediately = deliversLoadsImmediately
        viewport = Viewport(width: adapter.width, height: viewportHeight, offset: 0)
        loadMore = LoadMore(distance: distance)
        next = adapter.page.next.map { Self.location($0, relativeTo: adapter.page.file) }
        nextLink = adapter.page.next.map { (adapter.page.file, $0) }
        update()
    }

    /// The largest offset that still shows content at the viewport's top edge.
    public var maxOffset: Double { max(0, adapter.totalHeight - viewport.height) }

    /// Jumps to `offset` (clamped to the content), as a fast fling would.
    public func scroll(to offset: Double) {
        viewport.offset = min(max(0, offset), maxOffset)
        update()
    }

    /// The screen changed size (a terminal resized; the adapter is laid out at `width` already): the
    /// viewport keeps its offset as far as the content allows, rows that entered it are announced, and
    /// load-more decides again.
    public func resize(viewportHeight: Double, width: Double) {
        viewport.width = width
        viewport.height = max(1, viewportHeight)
        viewport.offset = min(viewport.offset, maxOffset)
        update()
    }

    /// Scrolls from the current offset toward `target` in steps of at most one viewport height.
    public func scroll(toward target: Double) {
        while viewport.offset < min(target, maxOffset) {
            scroll(to: min(target, nextStop))
        }
    }

    /// Scrolls until no more content or pages arrive.
    public func scrollToEnd() {
        while true {
            if viewport.offset < maxOffset {
                scroll(to: nextStop)
            } else if case .loading = loadMore.state {
                deliverLoad()
            } else {
                return
            }
        }
    }

    /// Where scrolling one screen at a time stops next: one screen further, or, when the row at the bottom
    /// edge reaches further than that, where its bottom comes into view. Every row is still displayed on
    /// the way, and a tall row costs one step rather than one per screen: scrolling costs O(rows), never
    /// O(points).
    private var nextStop: Double {
        scrollStops += 1
        let screen = viewport.offset + viewport.height
        guard let last = adapter.visibleRows(in: viewport).last else { return screen }
        return max(screen, adapter.rows[last].bottom - viewport.height)
    }

    /// Finishes the load in flight: its rows are merged and laid out, or the failure is recorded with no
    /// row changed (and retried while `retries` allow).
    public func deliverLoad() {
        guard case .loading = loadMore.state else { return }
        finishLoad()
        update()
    }

    /// Starts a failed load again.
    public func retry() {
        guard restart() else { return }
        update()
    }

    private func finishLoad() {
        guard case .loading(let location) = loadMore.state else { return }
        switch source.load(location, linkedFrom: nextLink) {
        case .success(let page):
            let edits = adapter.append(page)
            displayed = Self.remap(displayed, through: edits)
            next = page.next.map { Self.location($0, relativeTo: location) }
            nextLink = page.next.map { (location, $0) }
            loadMore.completed()
            events.append(.loadMoreCompleted(row: trigger, page: location, rowsAdded: edits.reduce(0) { $0 + $1.added - $1.removed }))
        case .failure(let error):
            loadMore.failed(reason: error.description)
            events.append(.loadMoreFailed(row: trigger, page: location, reason: error.description))
            failures[location, default: 0] += 1
            if failures[location]! <= retries { _ = restart() }
        }
    }

    private func restart() -> Bool {
        guard let location = loadMore.retry() else { return false }
        events.append(.loadMoreRequested(row: trigger, page: location))
        return true
    }

    /// Announces rows that entered the viewport, then lets load-more decide, in one loop: while loads are
    /// delivered immediately and the rules ask for more, it keeps going (a short page keeps loading until
    /// the viewport is filled or pages run out).
    private func update() {
        while true {
            let visible = adapter.visibleRows(in: viewport)
            for r in visible where !displayed.contains(r) {
                let row = adapter.describe(row: r)
                events.append(.willDisplay(row: r, section: row.section, sectionRow: row.row, floor: row.floor))
            }
            displayed = Set(visible)
            if case .loading = loadMore.state {
                guard deliversLoadsImmediately else { return }
                finishLoad()
                continue
            }
            let filled = adapter.totalHeight >= viewport.offset + viewport.height
            guard let location = loadMore.trigger(lastDisplayedRow: visible.last, rowCount: adapter.rowCount,
                                                  filled: filled, next: next) else { return }
            trigger = visible.last
            events.append(.loadMoreRequested(row: trigger, page: location))
        }
    }

    // MARK: Reload (PageReload.swift reads the pages)

    /// Puts reloaded pages on screen: the adapter pairs the new rows with the old and measures only those
    /// that changed (Adapter.reload); the viewport stays on the content at its top (ReloadAnchor); rows
    /// still on screen and unchanged are not announced again; load-more starts over from the pages now
    /// loaded (`loaded`: the next pages' locations), with `next` after them, and a load in flight is
    /// dropped (the rules ask for it again if they still apply).
    func show(reloaded pages: [Page], loaded: [String], next location: String?, link: (page: String, link: String)?) -> PageDiff {
        let anchor = ReloadAnchor(adapter, at: viewport.offset)
        let oldRows = adapter.rowCount
        let diff = adapter.reload(pages)
        viewport.offset = min(max(0, anchor.offset(after: diff, oldRowCount: oldRows, in: adapter)), maxOffset)
        var newOfOld = [Int: Int]()
        for (r, old) in diff.oldRowOfNew.enumerated() where diff.keptRows[r] { if let old, displayed.contains(old) { newOfOld[old] = r } }
        displayed = Set(newOfOld.values)
        next = location
        nextLink = link
        var machine = LoadMore(distance: loadMore.distance)
        for page in loaded {
            _ = machine.trigger(lastDisplayedRow: nil, rowCount: 0, filled: false, next: page)
            machine.completed()
        }
        loadMore = machine
        failures = [:]
        trigger = nil
        events.append(.reloaded(floorsChanged: diff.floors.count, rowsKept: diff.rowsKept, rowsMeasured: diff.rowsMeasured))
        update()
        return diff
    }

    /// Rows displayed before the edits, renumbered after them; rows an edit replaced are gone (they are
    /// new rows now and get their own willDisplay).
    static func remap(_ rows: Set<Int>, through edits: [Adapter.Edit]) -> Set<Int> {
        edits.reduce(rows) { rows, edit in
            Set(rows.compactMap { r in
                if r < edit.at { return r }
                if r < edit.at + edit.removed { return nil }
                return r + edit.added - edit.removed
            })
        }
    }

    /// A next-page location as one canonical path, so that "a/../b.json" and "b.json" are one location.
    static func location(_ next: String, relativeTo page: String) -> String {
        let path = PageSource.resolve(next, relativeTo: page)
        let standardized = (path as NSString).standardizingPath
        return standardized.isEmpty ? path : standardized
    }
}
