import FloorCore
import FloorLayout
import FloorRender
import FloorRuntime
import FloorSession
import FoundationEssentials
import HostContract

/// A page being scrolled in a terminal (`floorhost view`): a PageSession sized to the terminal, the tappable
/// item the user selected, and what the message and status lines say. Keys, the clock and file changes come
/// from outside (ViewLoop); TerminalFrame draws it. Load-more, sticky headers, heights and actions are the
/// session's and the adapter's, exactly as in every other front end.
///
/// Loads are not delivered by the session itself: a load stays in flight (the status line says so, and
/// scrolling goes on) while the load loop (`loads`, a LoadLoop) fetches it off this thread and hops back
/// through `arrivals`, whose pipe ViewLoop polls; its rows arrive when ViewLoop runs the arrivals, no
/// earlier than `--load-latency`. `deliverLoad()` has the loop do it all at once, blocking (a restarted
/// view resuming its position).
/// Threading: one thread at a time.
public final class PageViewer {
    public let session: PageSession
    /// The load loop that carries the session's loads: `pump()` after anything that may ask for one.
    public let loads: LoadLoop
    /// Where the loop's results land, for ViewLoop's poll (`descriptor`) and thread (`run`).
    package let arrivals: LoadArrivals
    private let file: String
    /// Impressions on the wall clock (`--impression`): how many items counted so far.
    public private(set) var itemsSeen = 0
    private var eventsRead = 0

    /// The terminal's size; the page is laid out `columns` wide and scrolled in a viewport of `pageLines`.
    public private(set) var columns: Int
    public private(set) var lines: Int
    /// The selected tappable item: global row index and item.
    public private(set) var selection: (row: Int, item: Int)?
    /// The message line: what the last key (or a load, a reload) did, until the next key; else the key
    /// line (KeyHelp), so the keys come back after every message. Plugin text is escaped when drawn.
    public var message: String { note ?? KeyHelp.line(columns: columns) }
    /// What the message line says instead of the keys, if anything, and whether it offers the
    /// selected item ("Enter taps it"), so that it goes when the item leaves the screen.
    private var note: String?
    private var noteOffersSelection = false
    /// `?` was pressed: the full key help is drawn over the page until the next key.
    public private(set) var showingHelp = false
    /// `--width`: the page is laid out this many points wide whatever the terminal's width (nil: 5 points a
    /// column, TextRenderer.layoutWidth).
    public let fixedWidth: Double?
    /// Draw bold, muted and accent text in colour (`--color`; off with NO_COLOR).
    public var styled = false
    /// `G` was pressed: keep scrolling to the end as pages arrive, until the feed ends or another key.
    private var followingEnd = false

    /// Lines below the page: the message line and the status line.
    public static let chromeLines = 2

    /// `clock` measures impressions (the wall clock unless a test injects one); `remote` fetches pages that
    /// are URLs.
    public init(
        host: FloorHost, page file: String, root: PageRoot, remote: RemotePageClient? = nil, columns: Int, lines: Int,
        prefetch: Prefetch = .standard, retries: Int = 0, impressions: ImpressionRule? = nil,
        clock: ImpressionClock = .wall, width: Double? = nil
    ) throws(PageError) {
        self.file = file
        fixedWidth = width
        self.columns = max(1, columns)
        self.lines = max(Self.chromeLines + 1, lines)
        // Loaded once: a reload applies a new version to this same session (PageSession.reload).
        let adapter = try host.layout(
            page: file, root: root, remote: remote, width: width ?? TextRenderer.layoutWidth(columns: self.columns))
        session = PageSession(
            adapter: adapter, viewportHeight: Self.viewportHeight(lines: self.lines),
            source: host.pageSource(root: root, remote: remote),
            retries: retries, deliversLoadsImmediately: false, prefetch: prefetch, impressions: impressions,
            impressionClock: clock)
        let arrivals = LoadArrivals()
        self.arrivals = arrivals
        loads = LoadLoop(session: session, hop: { arrivals.post($0) })
        let diagnostics = host.diagnostics(for: session.adapter)
        if !diagnostics.isEmpty {
            let count = diagnostics.reduce(0) { $0 + $1.count }  // a group counts each of its places
            note =
                "\(count) diagnostic\(count == 1 ? "" : "s") (listed after you quit); first: \(diagnostics[0].message)"
        }
        loads.onStep = { [weak self] step in
            if case .delivered = step { self?.loadDelivered() }
        }
    }

    package static func viewportHeight(lines: Int) -> Double {
        Double(max(1, lines - chromeLines)) * TextRenderer.pointsPerLine
    }

    public var adapter: Adapter { session.adapter }

    /// What happened that the loop must act on.
    public enum Outcome: Equatable, Sendable {
        case redraw
        case quit
        /// Ctrl-C: quit, and say so in the exit status.
        case interrupted
    }

    public func handle(_ key: Key) -> Outcome {
        let line = TextRenderer.pointsPerLine
        let screen = session.viewport.height
        if key != .character("G") && key != .end { followingEnd = false }
        // Each key ends the last message (the keys come back) and closes the help; `?` opens it.
        say(nil)
        if showingHelp {
            showingHelp = false
            if key == .character("?") { return .redraw }
        }
        switch key {
        case .character("?"): showingHelp = true
        case .character("q"): return .quit
        case .interrupt: return .interrupted
        case .character("j"), .down, .wheelDown: scroll(by: key == .wheelDown ? 3 * line : line)
        case .character("k"), .up, .wheelUp: scroll(by: key == .wheelUp ? -3 * line : -line)
        case .character(" "), .pageDown, .character("f"): scroll(by: screen - line)
        case .pageUp, .character("b"): scroll(by: -(screen - line))
        case .character("g"), .home: scroll(to: 0)
        case .character("G"), .end:
            followingEnd = true
            scroll(to: session.maxOffset)
        case .tab: select(forward: true)
        case .backTab: select(forward: false)
        case .enter: tap()
        case .left, .character("h"): turnPage(by: -1)
        case .right, .character("l"): turnPage(by: 1)
        case .character("R"): retry()
        default: break
        }
        return .redraw
    }

    /// Scrolls to `offset` as a fresh view would get there (loading the next pages on the way, at once):
    /// where a restarted view resumes.
    public func resume(at offset: Double) {
        while session.viewport.offset < min(offset, session.maxOffset) || isLoading {
            if isLoading {
                session.deliverLoad()
                continue
            }
            let before = session.viewport.offset
            session.scroll(toward: offset)
            if session.viewport.offset == before && !isLoading { break }
        }
    }

    private func scroll(by delta: Double) { scroll(to: session.viewport.offset + delta) }

    private func scroll(to offset: Double) {
        session.scroll(to: offset)
        if let selection, !adapter.rowsOnScreen(in: session.viewport).contains(selection.row) {
            self.selection = nil
            if noteOffersSelection { say(nil) }
        }
    }

    /// Puts `text` on the message line until the next key (nil: the key line); `offering` when it offers the
    /// selected item.
    private func say(_ text: String?, offering: Bool = false) {
        note = text
        noteOffersSelection = offering
    }

    /// Delivers the load in flight (its rows appear in place, or its failure is shown), and keeps going to
    /// the end after `G`.
    public func deliverLoad() {
        session.deliverLoad()
        loadDelivered()
    }

    /// A load was delivered (here, or by `loads`): its rows appear in place, or its failure is shown (or its
    /// retry waits), and after `G` scrolling goes on to the end.
    private func loadDelivered() {
        if let reason = session.retryReason, case .loading(let location) = session.loadMore.state {
            say("could not load \(Self.name(location)) (--retry tries again): \(Self.reason(reason, of: location))")
        } else if case .failed(let location, let reason) = session.loadMore.state {
            say("could not load \(Self.name(location)): \(Self.reason(reason, of: location)); R retries")
            followingEnd = false
        } else if followingEnd {
            scroll(to: session.maxOffset)
        }
    }

    /// Whether a load is in flight, waiting for `deliverLoad()`.
    public var isLoading: Bool {
        if case .loading = session.loadMore.state { return true }
        return false
    }

    private func retry() {
        if session.retryDue != nil, case .loading(let location) = session.loadMore.state {
            say("retrying \(Self.name(location)) now")
            session.retry()
            return
        }
        guard case .failed(let location, _) = session.loadMore.state else {
            say("nothing to retry")
            return
        }
        say("retrying \(Self.name(location))")
        session.retry()
    }

    /// Lays the page out for a terminal of a new size: heights are cached per width, so a width seen before
    /// measures only rows added since. The row at the top stays at the top.
    public func resize(columns: Int, lines: Int) {
        let columns = max(1, columns)
        let lines = max(Self.chromeLines + 1, lines)
        guard columns != self.columns || lines != self.lines else { return }
        let top = adapter.visibleRows(in: session.viewport).first
        self.columns = columns
        self.lines = lines
        adapter.setWidth(fixedWidth ?? TextRenderer.layoutWidth(columns: columns))
        session.resize(viewportHeight: Self.viewportHeight(lines: lines), width: adapter.width)
        scroll(to: top.map { adapter.describe(row: $0).y } ?? 0)
    }

    /// Reads the page again (and every next page it had loaded) and applies what changed
    /// (PageSession.reload): unchanged rows keep their heights, and the screen stays on the same content.
    /// A page that is now unusable leaves the old one on screen and says why.
    public func reload() {
        do {
            let diff = try session.reload()
            selection = nil
            followingEnd = false
            let floors = diff.floors.count
            say(
                diff.isEmpty
                    ? "reloaded \(Self.name(file)): no change"
                    : "reloaded \(Self.name(file)): \(floors) floor\(floors == 1 ? "" : "s") changed, \(diff.rowsMeasured) row\(diff.rowsMeasured == 1 ? "" : "s") measured, \(diff.rowsKept) kept"
            )
        } catch {
            say("reload failed, still showing the page as it was: \(error)")
        }
    }

    // MARK: Tapping

    /// Every tappable item shown on screen, in order: the items each row has frames for (a carousel's on
    /// the page it shows; docs/ABI.md, "Item frames"), a collection floor's items in item order (their row
    /// order), whatever column they are in, so Tab and Shift-Tab go item by item (left and right stay the
    /// carousel's).
    private var tappableOnScreen: [(row: Int, item: Int)] {
        adapter.rowsOnScreen(in: session.viewport).flatMap { row in
            adapter.itemFrames(row: row).map { (row, $0.item) }
        }
    }

    /// Where the selected item is in its row (its frame, or its share of the row for a row reporting none):
    /// what TerminalFrame highlights.
    public var selectedFrame: ItemFrame? {
        guard let selection else { return nil }
        return adapter.itemFrames(row: selection.row).first { $0.item == selection.item }
    }

    /// Pages the selected carousel, or the first one on screen when the selection is not on one, by
    /// `delta` (wrapping around); the selection moves to the first item of the page shown.
    private func turnPage(by delta: Int) {
        let visible = adapter.visibleRows(in: session.viewport)
        let row =
            selection.map(\.row).flatMap { session.pageCount(ofRow: $0) > 1 ? $0 : nil }
            ?? visible.first { session.pageCount(ofRow: $0) > 1 }
        guard let row else {
            say("nothing on screen pages (←/→ turn a carousel)")
            return
        }
        let page = session.turnPage(by: delta, ofRow: row)
        let count = session.pageCount(ofRow: row)
        let info = adapter.describe(row: row)
        if let first = adapter.itemFrames(row: row).first {
            selection = (row, first.item)
        }
        say(
            "page \(page + 1) of \(count) in row \(info.section):\(info.row) (\(info.type) of floor '\(info.floor)'); Enter taps it",
            offering: selection != nil)
    }

    private func select(forward: Bool) {
        let items = tappableOnScreen
        guard !items.isEmpty else {
            selection = nil
            say("nothing on screen can be tapped")
            return
        }
        let current = selection.flatMap { s in items.firstIndex { $0 == s } }
        let index =
            current.map { (forward ? $0 + 1 : $0 - 1 + items.count) % items.count } ?? (forward ? 0 : items.count - 1)
        selection = items[index]
        let info = adapter.describe(row: items[index].row)
        let count = adapter.tappableItems(row: items[index].row)
        let pages = session.pageCount(ofRow: items[index].row)
        let page = pages > 1 ? ", page \(session.page(ofRow: items[index].row) + 1) of \(pages)" : ""
        say(
            "item \(items[index].item + 1) of \(count)\(page) in row \(info.section):\(info.row) (\(info.type) of floor '\(info.floor)'); Enter taps it",
            offering: true)
    }

    private func tap() {
        guard let selection else {
            say("Tab selects a tappable item first")
            return
        }
        let info = adapter.describe(row: selection.row)
        switch session.tap(section: info.section, row: info.row, item: selection.item) {
        case .success(let action) where action.url == LoadStateFooter.retryURL:
            // The session retried the load; the footer and the status line say how it goes.
            say("retrying \(Self.name(action.params.first?.value ?? ""))")
            self.selection = nil
        case .success(let action):
            let event = action.eventId.map { "  eventId=\($0)" } ?? ""
            let params = action.params.map { "  \($0.key)=\($0.value)" }.joined()
            say("tap \(info.section):\(info.row):\(selection.item) → \(action.url)\(event)\(params)")
        case .failure(let none):
            say("no action: \(none)")
        }
    }

    // MARK: Impressions

    /// Looks at the screen on the wall clock (the loop calls it when `impressionDue` passes, and after each
    /// key); true when an item counted, which the message line then names.
    public func observeImpressions() -> Bool {
        guard session.impressions != nil else { return false }
        session.observeImpressions()
        let events = session.events
        var last: Impression?
        var counted = 0
        while eventsRead < events.count {
            if case .impression(let seen) = events[eventsRead] {
                last = seen
                counted += 1
            }
            eventsRead += 1
        }
        guard let last else { return false }
        itemsSeen += counted
        let item = last.itemID.map { " \($0)" } ?? ""
        say(
            "seen: \(last.floor)\(item) (row \(last.section):\(last.sectionRow), \(Int((last.fraction * 100).rounded()))% for \(Int(last.visibleMilliseconds)) ms)\(counted > 1 ? " and \(counted - 1) more" : "")"
        )
        return true
    }

    /// When, on the impression clock (ms), the next row on screen would count if it stays; nil when none.
    public var impressionDue: Double? { session.impressions?.nextDue }

    // MARK: The status line

    /// What the status line says about the page's next pages.
    public var loadState: String {
        switch session.loadMore.state {
        case .loading(let location):
            guard let due = session.retryDue else { return "loading \(Self.name(location))…" }
            let wait = max(0, due - session.clock.now)
            return
                "\(Self.name(location)) failed, retrying in \(wait < 10 ? PrintfFormat.string("%.1f", wait) : String(Int(wait.rounded()))) s (R: now)"
        case .failed(let location, _): return "\(Self.name(location)) failed (R retries)"
        case .exhausted: return session.loadMore.requested.isEmpty ? "one page, no next" : "end of feed"
        case .stopped(let stop): return "stopped: \(stop.reason)"
        case .idle: return session.next.map { "next: \(Self.name($0))" } ?? "end of feed"
        }
    }

    /// `page.json · 120 rows · 3 pages · 45%`, then the load state.
    public var status: String {
        let pages = adapter.pages.count
        let percent = session.maxOffset > 0 ? Int((session.viewport.offset / session.maxOffset * 100).rounded()) : 100
        let seen = session.impressions == nil ? "" : " · \(itemsSeen) seen"
        let width = fixedWidth.map { " · \($0 == $0.rounded() ? String(Int($0)) : String($0)) points wide" } ?? ""
        return
            "\(Self.name(file))\(width) · \(adapter.contentRowCount) rows · \(pages) page\(pages == 1 ? "" : "s") · \(percent)%\(seen) · \(loadState)"
    }

    /// What the view did, for stderr after it quits: the pages loaded (each once), the rows, the feed's state.
    public var summary: String {
        let loaded = session.loadMore.requested.map(Self.name)
        let pages =
            loaded.isEmpty
            ? "no next page loaded"
            : "\(loaded.count) next page\(loaded.count == 1 ? "" : "s") loaded (\(loaded.joined(separator: ", ")))"
        let seen = session.impressions == nil ? "" : ", \(itemsSeen) item\(itemsSeen == 1 ? "" : "s") seen"
        return "viewed \(Self.name(file)): \(pages), \(adapter.contentRowCount) rows\(seen), \(loadState)"
    }

    /// A load's failure without the location it starts with (the message line names the page already).
    package static func reason(_ reason: String, of location: String) -> String {
        reason.hasPrefix(location + ": ") ? String(reason.dropFirst(location.count + 2)) : reason
    }

    /// A page location as a person names it (PageLocation.name).
    package static func name(_ location: String) -> String { PageLocation.name(location) }
}
