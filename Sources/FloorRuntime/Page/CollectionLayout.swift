import CFloorABI

/// How a collection floor places its item rows (FLOOR_ROW_ITEM) into columns: the layout the page chose
/// with the common fields `layout` and `columns`, within what the floor type declared (docs/ABI.md,
/// "Collections"; docs/ABI-1.5.md, part 4). A floor laid out as a list has none: its rows, items or not,
/// are full-width rows one under another, as every 1.4 floor's.
public struct CollectionLayout: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// Equal columns filled left to right; each line as tall as its tallest item.
        case grid
        /// Each item into the shortest column, the left one on a tie.
        case waterfall
    }

    public let kind: Kind
    /// 1 to FLOOR_COLUMNS_MAX.
    public let columns: Int
    /// Points between columns, between an item and the one under it, and left and right of the item area.
    public let columnGap: Double
    public let lineGap: Double
    public let inset: Double

    public init(kind: Kind, columns: Int, columnGap: Double = 0, lineGap: Double = 0, inset: Double = 0) {
        self.kind = kind
        self.columns = min(max(columns, 1), Int(FLOOR_COLUMNS_MAX))
        self.columnGap = columnGap
        self.lineGap = lineGap
        self.inset = inset
    }

    /// The width every item is measured and drawn at on a page `width` points wide:
    /// (width - 2 inset - (columns - 1) column gap) / columns, never below 0.
    public func columnWidth(in width: Double) -> Double {
        max(0, (width - 2 * inset - Double(columns - 1) * columnGap) / Double(columns))
    }

    /// The left edge of `column` on a page `width` points wide.
    public func x(ofColumn column: Int, in width: Double) -> Double {
        inset + Double(column) * (columnWidth(in: width) + columnGap)
    }
}

/// What a floor type declared about collections (floor_floor_type_t.layouts and the fields after it).
/// A plugin built against ABI 1.4 or earlier declares nothing: list only.
package struct DeclaredLayouts: Sendable, Equatable {
    /// FLOOR_LAYOUT_* bits; always holds FLOOR_LAYOUT_LIST (0 in the struct means list only).
    package var supported: UInt32 = FLOOR_LAYOUT_LIST
    package var defaultLayout: UInt32 = FLOOR_LAYOUT_LIST
    package var defaultColumns = 1
    package var columnGap = 0.0
    package var lineGap = 0.0
    package var inset = 0.0

    package init() {}

    /// From the plugin's struct, each field made usable: an unsupported default is list, columns are
    /// clamped to 1...FLOOR_COLUMNS_MAX, a gap or inset that is not a finite number of points from 0 to
    /// FLOOR_MAX_ROW_HEIGHT is 0. Returns what was made usable, for the plugin's messages.
    package init(_ floor: floor_floor_type_t, problems: inout [String]) {
        supported =
            (floor.layouts & (FLOOR_LAYOUT_LIST | FLOOR_LAYOUT_GRID | FLOOR_LAYOUT_WATERFALL)) | FLOOR_LAYOUT_LIST
        defaultLayout = floor.default_layout
        if defaultLayout.nonzeroBitCount != 1 || supported & defaultLayout == 0 {
            if defaultLayout != 0 {
                problems.append("default_layout \(floor.default_layout) is not one layout it supports; list is used")
            }
            defaultLayout = FLOOR_LAYOUT_LIST
        }
        let columns = Int(floor.default_columns)
        defaultColumns = min(max(columns, 1), Int(FLOOR_COLUMNS_MAX))
        if columns != defaultColumns && columns != 0 {
            problems.append(
                "default_columns \(columns) is outside 1 to \(FLOOR_COLUMNS_MAX); \(defaultColumns) is used")
        }
        func points(_ value: Double, _ name: String) -> Double {
            guard value.isFinite, value >= 0, value <= FLOOR_MAX_ROW_HEIGHT else {
                problems.append("\(name) \(value) is not 0 to \(Int(FLOOR_MAX_ROW_HEIGHT)) points; 0 is used")
                return 0
            }
            return value
        }
        columnGap = points(floor.column_gap, "column_gap")
        lineGap = points(floor.line_gap, "line_gap")
        inset = points(floor.inset, "inset")
    }

    package static func bit(_ kind: CollectionLayout.Kind?) -> UInt32 {
        switch kind {
        case nil: FLOOR_LAYOUT_LIST
        case .grid: FLOOR_LAYOUT_GRID
        case .waterfall: FLOOR_LAYOUT_WATERFALL
        }
    }

    package var names: [String] {
        [("list", FLOOR_LAYOUT_LIST), ("grid", FLOOR_LAYOUT_GRID), ("waterfall", FLOOR_LAYOUT_WATERFALL)]
            .filter { supported & $0.1 != 0 }.map(\.0)
    }

    /// The floor's layout from the page's `layout` and `columns` (as the floor walk read them); nil is a list.
    /// Anything the floor cannot show as written is a problem (path relative to the floor, and what was done
    /// instead), and the floor still shows: an unknown or unsupported layout as a list, columns clamped.
    package func resolve(_ request: CollectionRequest, typeName: String) -> (CollectionLayout?, [(String, String)]) {
        var problems: [(String, String)] = []
        var kind: CollectionLayout.Kind?
        switch request.layout {
        case .absent:
            kind =
                defaultLayout == FLOOR_LAYOUT_GRID ? .grid : defaultLayout == FLOOR_LAYOUT_WATERFALL ? .waterfall : nil
        case .text("list"):
            kind = nil
        case .text(let name):
            if let known = CollectionLayout.Kind(rawValue: name) {
                if supported & Self.bit(known) != 0 {
                    kind = known
                } else {
                    problems.append(
                        (
                            "layout",
                            "floor type '\(typeName)' does not support layout '\(name)' (it supports \(names.joined(separator: ", "))); shown as a list"
                        ))
                }
            } else {
                problems.append(
                    ("layout", "unknown layout '\(name)' (expected list, grid or waterfall); shown as a list"))
            }
        case .misfit(let found):
            problems.append(("layout", "must be \"list\", \"grid\" or \"waterfall\", found \(found); shown as a list"))
        case .number:
            problems.append(("layout", "must be \"list\", \"grid\" or \"waterfall\", found number; shown as a list"))
        }
        // `columns` means something only to a grid or a waterfall: a list-only floor type may have a field of
        // that name of its own (IconGrid's), and a list has no columns.
        guard let kind else { return (nil, problems) }
        var columns = defaultColumns
        switch request.columns {
        case .absent: break
        case .number(let value):
            if value.isNaN || value.rounded(.down) != value || value < 1 || value > Double(FLOOR_COLUMNS_MAX) {
                let clamped =
                    value.isNaN ? defaultColumns : Int(min(max(value.rounded(.down), 1), Double(FLOOR_COLUMNS_MAX)))
                problems.append(
                    (
                        "columns",
                        "must be a whole number from 1 to \(FLOOR_COLUMNS_MAX), found \(value.pointsText); \(clamped) is used"
                    ))
                columns = clamped
            } else {
                columns = Int(value)
            }
        case .text, .misfit:
            let found: String
            if case .misfit(let kind) = request.columns { found = kind } else { found = "string" }
            problems.append(
                (
                    "columns",
                    "must be a whole number from 1 to \(FLOOR_COLUMNS_MAX), found \(found); \(defaultColumns) is used"
                ))
        }
        return (
            CollectionLayout(kind: kind, columns: columns, columnGap: columnGap, lineGap: lineGap, inset: inset),
            problems
        )
    }
}

/// The common fields `layout` and `columns` of a floor as written, read on the floor's one walk.
package struct CollectionRequest: Sendable, Equatable {
    package enum Value: Sendable, Equatable {
        case absent
        case text(String)
        case number(Double)
        /// Present but neither text nor a number: names what was found.
        case misfit(String)
    }
    package var layout = Value.absent
    package var columns = Value.absent

    package init() {}
}

extension Double {
    /// 3 rather than 3.0 when whole: numbers in messages read like the page's own.
    fileprivate var pointsText: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
