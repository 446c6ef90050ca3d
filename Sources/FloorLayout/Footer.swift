import FloorRuntime

/// The host-drawn row after the last floor of a feed: what the next page is doing, as the list frameworks'
/// load-state footers say it (Paging 3's LoadState, Tangram-Android #42): `loading`, `failed: reason (tap
/// to retry)`, and `no more` once the feed ended.
///
/// Which pages get one: a page whose first page names a `next` (a feed). It stays, saying `no more`, after
/// the last next page. A page with no `next` is not a feed and has no footer: a static channel page ending
/// in "no more" would say something nobody asked.
///
/// The footer is the adapter's last section (floor id `floorhost.footer`, row type `LoadStateFooter`), one
/// row high, laid out after every floor and moved behind the floors a next page appends. It is not content:
/// load-more's `count − distance` counts floors' rows only, and impressions skip it. A tap on it while a load
/// has failed retries that load (PageSession.tap). Plugins may restyle it later; the host draws it now.
/// Threading: the session's (one thread at a time); the cell selector reads `state` while drawing.
public final class LoadStateFooter: FooterRowModel, @unchecked Sendable {
    public enum State: Sendable, Equatable {
        /// A next page exists and was not requested yet (nothing scrolled near the end).
        case more(page: String)
        case loading(page: String)
        case failed(page: String, reason: String)
        /// The feed ended: no next page.
        case end
        /// The chain ended before its last `next` (a loop, the page limit): why.
        case stopped(reason: String)
    }

    public package(set) var state: State

    package init(state: State) { self.state = state }

    /// The floor id the footer's rows carry in every output.
    public static let floorID = "floorhost.footer"
    /// What a tap on a failed footer describes as its action; PageSession.tap performs it.
    public static let retryURL = BuiltinRows.retryURL
    /// The footer's height in points (BuiltinRows draws the row).
    package static let height = BuiltinRows.footerHeight

    /// The page whose load failed, while the footer says so.
    package var failedPage: String? {
        if case .failed(let page, _) = state { return page }
        return nil
    }

    /// The line the footer draws, the same in every output.
    public var text: String {
        switch state {
        case .more: return "pull up to load more"
        case .loading: return "loading…"
        case .failed(_, let reason): return "failed: \(reason) (tap to retry)"
        case .end: return "no more"
        case .stopped(let reason): return "stopped: \(reason)"
        }
    }

    /// The state's one-word name, as json's `footer.state` gives it.
    public var stateName: String {
        switch state {
        case .more: return "more"
        case .loading: return "loading"
        case .failed: return "failed"
        case .end: return "end"
        case .stopped: return "stopped"
        }
    }
}

extension Adapter {
    /// The footer's row, while the page shows a footer (always the last row).
    public var footerRow: Int? { footer == nil ? nil : rowCount - 1 }
    /// The rows floors expanded into: every row but the footer. What load-more's `count − distance` counts.
    public var contentRowCount: Int { footer == nil ? rowCount : rowCount - 1 }
    /// The bottom of the last floor's last row (the footer's top, when there is one).
    public var contentHeight: Double { footerRow.map { rows[$0].top } ?? totalHeight }
}
