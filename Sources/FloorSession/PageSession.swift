import FloorLayout
import FloorRuntime
import FoundationEssentials

/// A page being viewed: the adapter, a viewport scrolled over it, and the next pages load-more fetches
/// (a table adapter with its pull-up delegate and a paging data presenter). Everything that happens
/// is appended to `events`.
///
/// A load is requested by the LoadMore rules, fetched, then delivered, always by the one load loop
/// (LoadLoop). With `deliversLoadsImmediately` the session has the loop fetch and deliver it, blocking,
/// right after the request (the batch CLI). Otherwise it stays in flight while scrolling goes on, and a
/// LoadLoop carries it: `startLoad()` hands out the load to fetch (at most one at a time, and a retry only
/// once `retryDue` has passed on `clock`), the loop fetches it off this thread (`PageSource.fetch`), and
/// `finish(_:with:)` decodes and lays it out here (the view's poll loop, serve's lock); or
/// `deliverLoad()` has the loop do all of it, blocking (a resumed view, replays, tests).
/// A failure is retried by `retryPolicy` (backoff, jitter, Retry-After): the load stays in flight while
/// the retry waits, so nothing else starts, and each attempt is a `requested` event and each failure a
/// `failed` one. Threading: one thread at a time; `startLoad`'s loads may be fetched on any thread.
public final class PageSession: @unchecked Sendable {
    public let adapter: Adapter
    public private(set) var viewport: Viewport
    public package(set) var events: [Event] = []
    /// At most this many events are kept, the newest (nil: every one, as the batch CLI prints them): a
    /// session looked at all day (serve's) keeps its memory bounded. Older ones are dropped, counted in
    /// `droppedEvents`; `eventCount` counts every event ever appended.
    public var eventLimit: Int?
    /// Events dropped from the front of `events` to keep within `eventLimit`.
    public private(set) var droppedEvents = 0
    /// Every event appended so far: `droppedEvents + events.count`.
    public var eventCount: Int { droppedEvents + events.count }
    package func dropEvents(_ count: Int) { droppedEvents += count }
    /// How many stops scrolling one screen at a time (`scroll(toward:)`, `scrollToEnd`) has made: the work
    /// those scrolls cost, which tests hold proportional to rows.
    public private(set) var scrollStops = 0
    public private(set) var loadMore: LoadMore
    public var deliversLoadsImmediately: Bool
    /// Automatic retries of a failed load (`--retry N`).
    public var retries: Int { retryPolicy.attempts }
    public let retryPolicy: RetryPolicy
    /// What retry waits are measured on.
    public let clock: any LoadClock

    public let source: PageSource
    /// The next page to load, resolved against the page that named it; nil at the end.
    public private(set) var next: String?
    /// The page whose `next` named `next`, and the link as written: what a refusal names.
    private var nextLink: (page: String, link: String)?
    private var displayed = Set<Int>()
    private var trigger: Int?
    private var failures: [String: Int] = [:]
    /// Every attempt the load loop delivered (LoadLoop), in order: how tests see that a front end's loads
    /// went through it. An attempt delivered by calling `finish` directly is not here.
    public private(set) var loadsRun: [LoadLoop.Run] = []
    /// Whether trying the last failed load again may help (PageError.retryable), for the hint a failure shows.
    public private(set) var lastFailureRetryable = true
    /// Impression tracking (Impressions.swift), nil when off; its clock and the simulated time.
    public package(set) var impressions: ImpressionTracker?
    package let impressionClock: ImpressionClock
    package var simulatedTime = 0.0
    /// The load in flight's progress: nil when no load is in flight or it waits for a driver to start it.
    private var stage: Stage?
    private var tickets = 0

    /// What the load in flight waits for, beyond LoadMore's `.loading`.
    private enum Stage {
        /// Being fetched by a driver (`startLoad` handed it out).
        case fetching(ticket: Int)
        /// A failed attempt, retried by the policy once the clock reaches `due`.
        case retrying(due: Double, reason: String)
    }

    /// One attempt at loading a next page, as handed to a driver: fetch `location` (from the page and link
    /// in `linkedFrom`), then give the result to `finish`.
    public struct Load: Sendable {
        public let location: String
        public let linkedFrom: (page: String, link: String)?
        package let ticket: Int
    }

    /// `prefetch`, when given, replaces `distance` (Prefetch.swift). `impressions`, when given, turns
    /// impression events on, measured on `impressionClock` (Impressions.swift). `clock` times the retry
    /// policy's waits (RetryPolicy). A page that names a next page gets the
    /// load-state footer (Footer.swift).
    public init(
        adapter: Adapter, viewportHeight: Double, source: PageSource, distance: Int = 4, retries: Int = 0,
        retryPolicy: RetryPolicy? = nil, clock: any LoadClock = SystemLoadClock(),
        deliversLoadsImmediately: Bool = true,
        prefetch: Prefetch? = nil, impressions: ImpressionRule? = nil,
        impressionClock: ImpressionClock = .simulated(step: ImpressionClock.standardStep)
    ) {
        self.adapter = adapter
        let source = source.rooted(at: adapter.page.file)
        self.source = source
        self.retryPolicy = retryPolicy ?? RetryPolicy(attempts: retries)
        self.clock = clock
        self.deliversLoadsImmediately = deliversLoadsImmediately
        viewport = Viewport(width: adapter.width, height: viewportHeight, offset: 0)
        // One chain rule for every front end (the page root's --max-pages; a loop back to any page loaded,
        // the first included), as `check` keeps it.
        loadMore = LoadMore(
            prefetch: prefetch ?? Prefetch(rows: max(1, distance))!, firstPage: adapter.page.file,
            maxPages: source.root?.maxPages ?? PageRoot.defaultMaxPages)
        self.impressions = impressions.map(ImpressionTracker.init(rule:))
        self.impressionClock = impressionClock
        next = adapter.page.next.map { PageLocation.location(of: $0, relativeTo: adapter.page.file) }
        nextLink = adapter.page.next.map { (adapter.page.file, $0) }
        if next != nil { adapter.installFooter(LoadStateFooter(state: .end)) }
        update()
    }

    /// The largest offset that still shows content at the viewport's top edge.
    public var maxOffset: Double { max(0, adapter.totalHeight - viewport.height) }

    /// Jumps to `offset` (clamped to the content), as a fast fling would.
    public func scroll(to offset: Double) {
        advanceSimulatedTime()
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
        return max(screen, adapter.row(last).bottom - viewport.height)
    }

    /// Finishes the load in flight here and now, blocking: waits (on `clock`) for a retry that is due later,
    /// fetches, and merges the rows or records the failure with no row changed (and retries while the
    /// policy allows, when loads are delivered immediately). A load a driver is fetching is fetched again
    /// here, and the driver's result is then ignored.
    public func deliverLoad() {
        guard case .loading = loadMore.state else { return }
        LoadLoop.deliverWaiting(self)
        update()
    }

    /// Starts a failed load again (a person asked: the view's R, the preview's button), also after the
    /// retry policy gave up; a retry that is waiting for its backoff starts now.
    public func retry() {
        if case .retrying = stage {
            stage = nil
            events.append(.loadMoreRequested(row: trigger, page: nextLocationInFlight ?? ""))
            update()
            return
        }
        guard restart() else { return }
        update()
    }

    /// The load a driver should fetch now, marked as being fetched; nil when no load is in flight, it is
    /// being fetched already, or its retry is not due yet (`retryDue`). A due retry is requested here.
    public func startLoad() -> Load? {
        startLoad(superseding: false)
    }

    /// `startLoad`; `superseding` (a blocking delivery, which has waited for the retry itself) hands out a
    /// new load even while one is being fetched or before its retry is due: the older one's result is
    /// then ignored.
    package func startLoad(superseding: Bool) -> Load? {
        guard case .loading(let location) = loadMore.state else { return nil }
        switch stage {
        case .fetching: if !superseding { return nil }
        case .retrying(let due, _):
            guard superseding || clock.now >= due else { return nil }
            events.append(.loadMoreRequested(row: trigger, page: location))
        case nil: break
        }
        tickets += 1
        stage = .fetching(ticket: tickets)
        return Load(location: location, linkedFrom: nextLink, ticket: tickets)
    }

    /// When the retry of the load in flight is due, on `clock`; nil when none waits.
    public var retryDue: Double? {
        if case .retrying(let due, _) = stage { return due }
        return nil
    }

    /// Why the last attempt of the load in flight failed, while its retry waits.
    public var retryReason: String? {
        if case .retrying(_, let reason) = stage { return reason }
        return nil
    }

    /// Whether a driver is fetching the load in flight.
    public var isFetching: Bool {
        if case .fetching = stage { return true }
        return false
    }

    /// The bytes a driver fetched for `load` (or why not): decoded and laid out here, on this session's
    /// thread. A load that is no longer the one in flight (delivered another way) is ignored.
    public func finish(_ load: Load, with fetched: Result<FetchedPage, PageError>) {
        finish(load, with: fetched, by: nil)
    }

    /// `finish`, noting the loop's driver in `loadsRun`; false when `load` is no longer the one in flight.
    @discardableResult
    package func finish(
        _ load: Load, with fetched: Result<FetchedPage, PageError>,
        by driver: LoadLoop.Driver?
    ) -> Bool {
        guard complete(load, with: fetched, by: driver) else { return false }
        update()
        return true
    }

    /// Delivers `load`'s result (decoded and merged, or failed and perhaps retried) without laying out what
    /// comes next; false when it is no longer the load in flight.
    @discardableResult
    package func complete(
        _ load: Load, with fetched: Result<FetchedPage, PageError>,
        by driver: LoadLoop.Driver?
    ) -> Bool {
        guard case .fetching(let ticket) = stage, ticket == load.ticket,
            case .loading(let location) = loadMore.state, location == load.location
        else { return false }
        stage = nil
        if let driver { loadsRun.append(LoadLoop.Run(location: location, driver: driver)) }
        apply(fetched.flatMap { source.decode($0) }, location: location)
        return true
    }

    private var nextLocationInFlight: String? {
        if case .loading(let location) = loadMore.state { return location }
        return nil
    }

    private func apply(_ result: Result<Page, PageError>, location: String) {
        switch result {
        case .success(let page):
            let edits = adapter.append(page)
            displayed = Self.remap(displayed, through: edits)
            impressions?.remap(through: edits)
            // Resolved against where the page came from (a redirect's target), named by it in refusals.
            next = page.next.map { PageLocation.location(of: $0, relativeTo: page.file) }
            nextLink = page.next.map { (page.file, $0) }
            loadMore.completed()
            events.append(
                .loadMoreCompleted(
                    row: trigger, page: location, rowsAdded: edits.reduce(0) { $0 + $1.added - $1.removed }))
        case .failure(let error):
            failures[location, default: 0] += 1
            var reason = error.description
            switch retryPolicy.decide(after: error, failures: failures[location]!) {
            case .retry(let wait):
                // Still in flight: nothing else starts while the retry waits.
                events.append(.loadMoreFailed(row: trigger, page: location, reason: reason))
                stage = .retrying(due: clock.now + wait, reason: reason)
                return
            case .giveUp(let why):
                if let why { reason += "; \(why)" }
            }
            lastFailureRetryable = error.retryable
            loadMore.failed(reason: reason)
            events.append(.loadMoreFailed(row: trigger, page: location, reason: reason))
        }
    }

    private func restart() -> Bool {
        guard let location = loadMore.retry() else { return false }
        stage = nil
        failures[location] = 0
        events.append(.loadMoreRequested(row: trigger, page: location))
        return true
    }

    /// Announces rows that entered the viewport, then lets load-more decide, in one loop: while loads are
    /// delivered immediately and the rules ask for more, it keeps going (a short page keeps loading until
    /// the viewport is filled or pages run out).
    private func update() {
        defer { settled() }
        while true {
            // Only rows on screen are announced: an item of a collection floor beside a taller one may have
            // left the screen while rows after it have not.
            let visible = adapter.visibleRows(in: viewport)
            let onScreen = adapter.rowsOnScreen(in: viewport)
            for r in onScreen where !displayed.contains(r) {
                let row = adapter.describe(row: r)
                events.append(.willDisplay(row: r, section: row.section, sectionRow: row.row, floor: row.floor))
            }
            displayed = Set(onScreen)
            if case .loading = loadMore.state {
                guard deliversLoadsImmediately, !isFetching else { return }
                LoadLoop.deliverWaiting(self)
                continue
            }
            let filled = adapter.totalHeight >= viewport.offset + viewport.height
            let screensBelow = (adapter.contentHeight - viewport.offset - viewport.height) / viewport.height
            guard
                let location = loadMore.trigger(
                    lastDisplayedRow: visible.last, rowCount: adapter.contentRowCount,
                    filled: filled, next: next, screensBelow: screensBelow)
            else { return }
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
    package func show(
        reloaded pages: [Page], loaded: [String], next location: String?, link: (page: String, link: String)?
    ) -> PageDiff {
        let anchor = ReloadAnchor(adapter, at: viewport.offset)
        let oldRows = adapter.rowCount
        let diff = adapter.reload(pages)
        viewport.offset = min(max(0, anchor.offset(after: diff, oldRowCount: oldRows, in: adapter)), maxOffset)
        var newOfOld = [Int: Int]()
        for (r, old) in diff.oldRowOfNew.enumerated() where diff.keptRows[r] {
            if let old, displayed.contains(old) { newOfOld[old] = r }
        }
        displayed = Set(newOfOld.values)
        next = location
        nextLink = link
        var machine = LoadMore(
            prefetch: loadMore.prefetch, firstPage: loadMore.firstPage, maxPages: loadMore.maxPages)
        for page in loaded {
            _ = machine.trigger(lastDisplayedRow: nil, rowCount: 0, filled: false, next: page)
            machine.completed()
        }
        loadMore = machine
        failures = [:]
        stage = nil  // a fetch in flight is dropped: its result no longer matches a load (finish ignores it)
        trigger = nil
        events.append(
            .reloaded(floorsChanged: diff.floors.count, rowsKept: diff.rowsKept, rowsMeasured: diff.rowsMeasured))
        update()
        return diff
    }

    /// Rows displayed before the edits, renumbered after them; rows an edit replaced are gone (they are
    /// new rows now and get their own willDisplay).
    package static func remap(_ rows: Set<Int>, through edits: [Adapter.Edit]) -> Set<Int> {
        edits.reduce(rows) { rows, edit in
            Set(
                rows.compactMap { r in
                    if r < edit.at { return r }
                    if r < edit.at + edit.removed { return nil }
                    return r + edit.added - edit.removed
                })
        }
    }
}
