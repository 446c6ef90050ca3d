/// Something that happened while a page was viewed, in order. Tests and machines read these from the json
/// output's `events`.
public enum Event: Sendable, Equatable {
    /// A row entered the viewport (UITableView's willDisplayCell).
    case willDisplay(row: Int, section: Int, sectionRow: Int, floor: String)
    /// Load-more started for `page` because row `row` was displayed (nil: the viewport was not filled
    /// and no row was displayed).
    case loadMoreRequested(row: Int?, page: String)
    case loadMoreCompleted(row: Int?, page: String, rowsAdded: Int)
    case loadMoreFailed(row: Int?, page: String, reason: String)
    /// The page was read again and what changed applied (PageSession.reload): how many floors changed,
    /// how many rows kept their cached heights and how many were measured.
    case reloaded(floorsChanged: Int, rowsKept: Int, rowsMeasured: Int)
    /// An item (or a row, where the row is the item) was exposed: visible enough for long enough
    /// (Impressions.swift). Once per item per session.
    case impression(Impression)
}
