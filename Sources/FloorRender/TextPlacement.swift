import FloorText

/// Where the text preview draws a text that shares a baseline with a text drawn before it in the same cell
/// (the rule of TextRenderer's grid backend; ARCHITECTURE.md, "Output contract").
///
/// A text's terminal line comes from its top (the line its top falls on, as for boxes and fills): a line of
/// real type is 16 to 25 points tall against the terminal's 12, and a plugin stacks its lines top-down, so
/// tops keep a cell's lines apart, in order and beside the frames drawn around them. Baselines alone could
/// not: ProductFeed's sale badge label (a caption, 2 points into its 20-point fill) has its baseline 23
/// points below the price's, yet sits three terminal lines below it, inside the fill.
///
/// Two texts on one baseline in different type styles have different tops, though: ProductFeed's price (a
/// headline) and, 4 points lower in the smaller footnote, the original price struck through after it. A
/// line boundary between the two tops would put them on two lines. So:
/// - a text whose first baseline is within `baselineTolerance` of a line drawn before it in the cell goes
///   on that line's terminal line;
/// - if that line is real type and the text starts where it ends in points (from half a point before its
///   end to `followGap` after it), the text starts right after that line's last drawn cell: touching when
///   the two touch in points (a run in two styles), else after one space. Its own x would not do:
///   proportional type and the grid's cells differ in width (a 63-point "¥199.00" spans 13 columns of
///   points but 7 cells), which would leave a gap of columns no phone shows, or draw over the text before
///   it. Cell text (FLOOR_TEXT_CELL) is as wide in points as its cells, so what follows it keeps its x.
/// A centred text is placed by its centring, and is never moved along its line.
///
/// Cost: the last `remembered` lines of the cell are compared, whatever the cell draws. Not for concurrent
/// use (one per grid backend, as the grid).
package struct TextPlacement {
    /// Baselines closer than this (in points) are one baseline: a plugin places a smaller style's top by a
    /// rounded offset (ProductFeed's 4 points for 3.56), and a line of any style is at least 16 points, so
    /// two stacked lines are never this close.
    static let baselineTolerance = 2.0
    /// The widest gap (in points) after a text's end that still has the next text follow it: about an em of
    /// the headline style (17 points); ProductFeed leaves 8 (6 in a stacked card), its sort strip's options
    /// are 20 apart and keep their own columns.
    static let followGap = 16.0
    /// A gap below this (in points) is no gap: the two texts touch.
    static let touching = 1.0
    /// How many of the cell's most recent lines a text is compared with.
    static let remembered = 16

    /// One line of text drawn in the current cell: its baseline and right end in the cell's points, the
    /// terminal line it went on, the column after its last cell, and whether it is real type.
    private struct Placed {
        let baseline: Double
        let right: Double
        let line: Int
        let end: Int
        let realType: Bool
    }

    private var placed: [Placed] = []

    package init() {}

    /// Forgets the lines drawn so far: a new cell starts (texts of different cells are never aligned).
    package mutating func startCell() {
        placed.removeAll(keepingCapacity: true)
    }

    /// The terminal line and first column of a text whose first line's baseline is `baseline` and which
    /// starts at `x` (nil when it is centred), given the line its top falls on and the column of its x.
    package func place(baseline: Double, x: Double?, line: Int, column: Int) -> (line: Int, column: Int) {
        var sharing: Placed?
        for earlier in placed.reversed() where abs(earlier.baseline - baseline) <= Self.baselineTolerance {
            if earlier.realType, let x, x - earlier.right >= -0.5, x - earlier.right <= Self.followGap {
                return (earlier.line, earlier.end + (x - earlier.right < Self.touching ? 0 : 1))
            }
            if sharing == nil { sharing = earlier }
        }
        return (sharing?.line ?? line, column)
    }

    /// Remembers a line drawn on terminal line `line` in the columns `drawn`, whose baseline is `baseline`
    /// and which ends at `right` in points, in the canvas style word `style`. A line with no cells drawn is
    /// not remembered.
    package mutating func record(baseline: Double, right: Double, line: Int, drawn: Range<Int>, style: UInt32) {
        guard !drawn.isEmpty else { return }
        if placed.count == Self.remembered { placed.removeFirst() }
        placed.append(
            Placed(
                baseline: baseline, right: right, line: line, end: drawn.upperBound,
                realType: TypeStyle(style: style) != nil))
    }

    /// The first line's baseline below a text's top, in points, for a canvas style word: where the browser
    /// preview puts it (CSS: half the line height, plus half of ascent minus descent times the size), with
    /// Noto Sans's ascent 1.069 em and descent 0.293 em (its hhea table; the font set's first face,
    /// Fonts.lock). Cell text (FLOOR_TEXT_CELL) is the html preview's 9.5-point type on a 9-point line.
    package static func baseline(style: UInt32) -> Double {
        guard let type = TypeStyle(style: style) else { return 9.0 / 2 + ascentOverDescent * 9.5 }
        return type.lineHeight / 2 + ascentOverDescent * type.pointSize
    }

    /// Half of Noto Sans's ascent minus its descent, in em.
    private static let ascentOverDescent = (1.069 - 0.293) / 2
}
