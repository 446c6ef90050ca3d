import FloorRuntime

/// When to fetch the next page (ARCHITECTURE.md, "Load-more"). A pure state machine, so each rule is
/// testable on its own:
/// - N = rows laid out. When a row with index >= max(0, N - distance) is displayed, or the content does not
///   fill the viewport, and a next page exists and no load is in flight, start one load.
/// - At most one load in flight; at most one load per next-page location (a page that links back to one
///   already loaded ends the chain).
/// - No next page: exhausted, no further triggers. A failure parks the machine until `retry`.
/// - A chain ends: a next page already in the chain (the first page included) is a loop, and a chain of
///   `maxPages` pages loads no more; either stops the machine with the reason (`stopped`), which front ends
///   show as a diagnostic and in the footer, as `check` does.
public struct LoadMore: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case idle
        case loading(location: String)
        case failed(location: String, reason: String)
        case exhausted
        /// The chain ends before its last `next`: a loop, or the page limit.
        case stopped(Stop)
    }

    /// Why a chain ended although its last page names a next one.
    public enum Stop: Sendable, Equatable {
        /// `page` (the next page) is already in the chain.
        case loop(page: String)
        /// The chain has `maxPages` pages; `page` would be one more.
        case limit(page: String, maxPages: Int)

        /// The next page that was not loaded.
        public var page: String {
            switch self {
            case .loop(let page), .limit(let page, _): page
            }
        }

        /// Why, for a person: what the footer says after "stopped: ".
        public var reason: String {
            switch self {
            case .loop(let page):
                "the next page '\(Self.name(page))' is already in the chain (a loop)"
            case .limit(_, let maxPages):
                "\(maxPages) pages, the limit (--max-pages N loads more)"
            }
        }

        private static func name(_ page: String) -> String {
            page.split(separator: "/").last.map(String.init) ?? page
        }
    }

    /// How far before the end a load starts (Prefetch.swift): rows, screens, or both.
    public let prefetch: Prefetch
    /// The row rule's distance (0 when only the screen rule is on).
    public var distance: Int { prefetch.rows ?? 0 }
    public private(set) var state: State = .idle
    /// Every location ever requested, in order.
    public private(set) var requested: [String] = []
    /// `requested` as a set: trigger runs on every scroll step, and must not cost O(pages loaded).
    private var requestedSet: Set<String> = []

    /// The first page's location: a next page naming it is a loop too.
    public let firstPage: String?
    /// The most pages the chain loads, the first included (at least 1).
    public let maxPages: Int

    /// `distance` counts the last rows that trigger a load: 1 means only the last row. At least 1.
    public init(distance: Int = 4, firstPage: String? = nil, maxPages: Int = PageRoot.defaultMaxPages) {
        self.init(prefetch: Prefetch(rows: max(1, distance))!, firstPage: firstPage, maxPages: maxPages)
    }

    public init(prefetch: Prefetch, firstPage: String? = nil, maxPages: Int = PageRoot.defaultMaxPages) {
        self.prefetch = prefetch
        self.firstPage = firstPage
        self.maxPages = max(1, maxPages)
    }

    /// The location to load now, or nil. `lastDisplayedRow` is the highest row index on screen (nil when
    /// none), `filled` whether content reaches the viewport's bottom, `next` the next page's location,
    /// `screensBelow` the content below the viewport's bottom edge in viewport heights (for the screen rule).
    public mutating func trigger(
        lastDisplayedRow: Int?, rowCount: Int, filled: Bool, next: String?,
        screensBelow: Double = .infinity
    ) -> String? {
        guard state == .idle else { return nil }
        guard let next else {
            state = .exhausted
            return nil
        }
        guard !requestedSet.contains(next), next != firstPage else {
            state = .stopped(.loop(page: next))
            return nil
        }
        guard
            !filled
                || prefetch.reached(lastDisplayedRow: lastDisplayedRow, rowCount: rowCount, screensBelow: screensBelow)
        else { return nil }
        guard 1 + requested.count < maxPages else {
            state = .stopped(.limit(page: next, maxPages: maxPages))
            return nil
        }
        requested.append(next)
        requestedSet.insert(next)
        state = .loading(location: next)
        return next
    }

    /// The load in flight finished and its rows are laid out.
    public mutating func completed() {
        if case .loading = state { state = .idle }
    }

    /// The load in flight failed; nothing changed on the page.
    public mutating func failed(reason: String) {
        if case .loading(let location) = state { state = .failed(location: location, reason: reason) }
    }

    /// Starts the failed load again; nil when nothing failed.
    public mutating func retry() -> String? {
        guard case .failed(let location, _) = state else { return nil }
        state = .loading(location: location)
        return location
    }
}
