import CFloorABI

/// The collection layouts a floor type supports and its defaults (ABI 1.5, docs/ABI.md "Collections"):
/// what the SDK puts in floor_floor_type_t.layouts and the fields after it. The page chooses among them
/// with the common fields `layout` and `columns`; the host places the rows a floor lists with
/// `FloorRows.appendItem` into the columns and measures them at the column width.
///
///     static let layouts = CollectionLayouts(
///         [.list, .grid, .waterfall], default: .list, columns: 2, columnGap: 8, lineGap: 8, inset: 8)
public struct CollectionLayouts: Sendable, Equatable {
    public enum Layout: Sendable, Equatable {
        /// Full-width rows, one under another: every floor's layout before ABI 1.5.
        case list
        /// Equal columns, left to right; each line as tall as its tallest item.
        case grid
        /// Each item into the shortest column, the left one on a tie.
        case waterfall

        var bit: UInt32 {
            switch self {
            case .list: FLOOR_LAYOUT_LIST
            case .grid: FLOOR_LAYOUT_GRID
            case .waterfall: FLOOR_LAYOUT_WATERFALL
            }
        }
    }

    public let supported: [Layout]
    public let defaultLayout: Layout
    /// 1 to FLOOR_COLUMNS_MAX (6): the columns when the page names none.
    public let columns: Int
    /// Points between columns, between an item and the one below it, and left and right of the items.
    public let columnGap: Double
    public let lineGap: Double
    public let inset: Double

    /// `default` must be one of `supported` (else list is); list is always supported.
    public init(
        _ supported: [Layout], default: Layout = .list, columns: Int = 2, columnGap: Double = 0, lineGap: Double = 0,
        inset: Double = 0
    ) {
        self.supported = supported.contains(.list) ? supported : [.list] + supported
        defaultLayout = self.supported.contains(`default`) ? `default` : .list
        self.columns = min(max(columns, 1), Int(FLOOR_COLUMNS_MAX))
        self.columnGap = columnGap
        self.lineGap = lineGap
        self.inset = inset
    }

    /// Every floor's layout unless it says otherwise: rows one under another, as before ABI 1.5.
    public static let listOnly = CollectionLayouts([.list], columns: 1)

    var bits: UInt32 { supported.reduce(0) { $0 | $1.bit } }
}
