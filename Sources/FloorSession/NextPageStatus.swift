import FloorCore
import FloorLayout

/// Where a page session stands with its next pages, for the line a preview ends with: whether a next page
/// exists and was not loaded, how many were loaded, whether the last load failed (and why), or that the
/// feed ended. A failed load is never silent: text output says it here, json as a diagnostic.
public enum NextPageStatus: Sendable, Equatable {
    /// A next page exists and was not loaded (nothing scrolled far enough).
    case notLoaded(page: String, loaded: Int)
    /// A load is in flight (an interactive front end; the batch CLI always finishes its loads).
    case loading(page: String, loaded: Int)
    /// The last load failed and was not retried successfully; `retryable` when trying again may help (a
    /// time limit, a 5xx, a refused connection: PageError.retryable), not for a 404 or an untrusted certificate.
    case failed(page: String, reason: String, loaded: Int, retryable: Bool)
    /// No next page: the first page had none, or the last loaded page had none.
    case ended(loaded: Int)
    /// The chain ended before its last `next`: a loop back into the chain, or the page limit.
    case stopped(LoadMore.Stop, loaded: Int)

    /// One line for a person, naming what to do where there is something to do.
    public var summary: String {
        switch self {
        case .notLoaded(let page, let loaded):
            return
                "\(Self.pages(loaded))next page \(Self.name(page)) not loaded (--scroll-to end loads every next page)"
        case .loading(let page, let loaded):
            return "\(Self.pages(loaded))loading the next page \(Self.name(page))"
        case .failed(let page, let reason, let loaded, let retryable):
            return
                "\(Self.pages(loaded))the next page \(Self.name(page)) failed to load: \(reason)\(retryable ? " (--retry N tries again)" : "")"
        case .ended(let loaded):
            return "\(Self.pages(loaded))end of the feed: no next page"
        case .stopped(let stop, let loaded):
            return "\(Self.pages(loaded))the chain stops here: \(stop.reason)"
        }
    }

    private static func pages(_ loaded: Int) -> String {
        loaded == 0 ? "" : "\(loaded) next page\(loaded == 1 ? "" : "s") loaded; "
    }

    private static func name(_ page: String) -> String {
        "'\(page.split(separator: "/").last.map(String.init) ?? page)'"
    }
}

extension PageSession {
    /// Where this session stands with its next pages.
    public var nextPageStatus: NextPageStatus {
        let loaded = adapter.pages.count - 1
        switch loadMore.state {
        case .loading(let location): return .loading(page: location, loaded: loaded)
        case .failed(let location, let reason):
            return .failed(page: location, reason: reason, loaded: loaded, retryable: lastFailureRetryable)
        case .stopped(let stop): return .stopped(stop, loaded: loaded)
        case .idle, .exhausted:
            if let next, !loadMore.requested.contains(next) { return .notLoaded(page: next, loaded: loaded) }
            return .ended(loaded: loaded)
        }
    }

    /// One diagnostic per failed next-page load (each also a `loadMore` `failed` event), so that json
    /// output, whose events a reader may skip, names it where problems are listed.
    /// A chain that stopped before its last `next` (a loop, the page limit) is one more, as `check` says it.
    public var loadDiagnostics: [Diagnostic] {
        let failed = events.compactMap { event -> Diagnostic? in
            guard case .loadMoreFailed(_, let page, let reason) = event else { return nil }
            return Diagnostic(
                .error,
                "\(adapter.page.file): next: next page '\(page)' failed to load: \(reason) (the chain stops here)",
                file: page, path: "next", consequence: .chainStops)
        }
        guard case .stopped(let stop) = loadMore.state else { return failed }
        let linking = adapter.pages.last?.file ?? adapter.page.file
        let message: String
        switch stop {
        case .loop(let page):
            message = "\(linking): next: next page '\(page)' links back into the chain (the chain stops here)"
        case .limit(let page, let maxPages):
            message =
                "\(linking): next: next page '\(page)' not loaded: the chain has \(maxPages) pages, the limit "
                + "(--max-pages N loads more) (the chain stops here)"
        }
        return failed + [Diagnostic(.error, message, file: linking, path: "next", consequence: .chainStops)]
    }
}

extension PageSession {
    /// `Adapter.tap`, and when the row is not on the page but next pages were not loaded, a hint that
    /// it may be on one of them: rows of a next page exist only once scrolling has loaded it. A tap on the
    /// failed footer's item retries the load (Footer.swift), and answers with the footer's retry action.
    /// On a paged row the tap shows the page of the item first (`--tap S:R:I` taps banner I on its page,
    /// Carousels.swift).
    public func tap(section: Int, row: Int, item: Int = 0) -> Result<TapAction, NoAction> {
        if let r = adapter.rowIndex(section: section, row: row), let page = page(showing: item, ofRow: r),
            page != self.page(ofRow: r)
        {
            showPage(page, ofRow: r)
        }
        let result = adapter.tap(section: section, row: row, item: item)
        if case .success(let action) = result, action.url == LoadStateFooter.retryURL,
            adapter.rowIndex(section: section, row: row) == adapter.footerRow
        {
            retry()
        }
        guard case .failure(let none) = result, adapter.rowIndex(section: section, row: row) == nil,
            case .notLoaded = nextPageStatus
        else { return result }
        return .failure(
            NoAction(
                description: none.description
                    + "; rows of next pages exist only once they are loaded: add --scroll-to end to load every next page before the tap"
            ))
    }
}
