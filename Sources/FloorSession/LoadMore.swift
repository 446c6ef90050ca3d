/// When to fetch the next page (ARCHITECTURE.md, "Load-more"). A pure state machine, so each rule is
/// testable on its own:
/// - N = rows laid out. When a row with index >= max(0, N - distance) is displayed, or the content does not
///   fill the viewport, and a next page exists and no load is in flight, start one load.
/// - At most one load in flight; at most one load per next-page location (a page that links back to one
///   already loaded ends the chain).
/// - No next page: exhausted, no further triggers. A failure parks the machine until `retry`.
public struct LoadMore: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case idle
        case loading(location: String)
        case failed(location: String, reason: String)
        case exhausted
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

    /// `distance` counts the last rows that trigger a load: 1 means only the last row. At least 1.
    public init(distance: Int = 4) {
        prefetch = Prefetch(rows: max(1, distance))!
    }

    public init(prefetch: Prefetch) {
        self.prefetch = prefetch
    }

    /// The location to load now, or nil. `lastDisplayedRow` is the highest row index on screen (nil when
    /// none), `filled` whether content reaches the viewport's bottom, `next` the next page's location,
    /// `screensBelow` the content below the viewport's bottom edge in viewport heights (for the screen rule).
    public mutating func trigger(
        lastDisplayedRow: Int?, rowCount: Int, filled: Bool, next: String?,
        screensBelow: Double = .infinity
    ) -> String? {
        guard state == .idle else { return nil }
        guard let next, !requestedSet.contains(next) else {
            state = .exhausted
            return nil
        }
        guard
            !filled
                || prefetch.reached(lastDisplayedRow: lastDisplayedRow, rowCount: rowCount, screensBelow: screensBelow)
        else { return nil }
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
