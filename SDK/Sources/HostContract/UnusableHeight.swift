import CFloorABI

/// A height calculator's answer that is no height at all (ABI 1.5's height rule, docs/ABI.md, "Heights"):
/// not finite, or negative. The row is shown as a placeholder with the reason, in every output, and `check`
/// counts it as an error; a finite answer above FLOOR_MAX_ROW_HEIGHT is clamped instead.
///
/// One rule for floorhost, `conform` and the test kit. floorhost keeps it in the host's bits of a row's
/// flags, so that it moves with the row through next pages and reloads; its diagnostic has the exact value.
public enum UnusableHeight: UInt32, Sendable {
    case nan = 1
    case infinity = 2
    case negativeInfinity = 3
    /// A finite negative number: its value is in the diagnostic.
    case negative = 4

    /// Nil when `height` is a height (finite, 0 or more).
    public init?(_ height: Double) {
        if height.isNaN {
            self = .nan
        } else if height == .infinity {
            self = .infinity
        } else if height == -.infinity {
            self = .negativeInfinity
        } else if height < 0 {
            self = .negative
        } else {
            return nil
        }
    }

    /// The answer as a placeholder names it: the value, or "a negative height".
    public var answer: String {
        switch self {
        case .nan: "NaN"
        case .infinity: "inf"
        case .negativeInfinity: "-inf"
        case .negative: "a negative height"
        }
    }

    /// What the placeholder says: "plugin X's height calculator returned inf for row type Y, so the row is
    /// shown as a placeholder".
    public static func reason(plugin: String, rowType: String, answer: String) -> String {
        "plugin \(plugin)'s height calculator returned \(answer) for row type '\(rowType)', so the row is shown as a placeholder"
    }

    /// What floorhost does with `height` when it is out of bounds, in words for a failing check: nil for a
    /// height it keeps (finite, 0 to FLOOR_MAX_ROW_HEIGHT).
    public static func consequence(of height: Double) -> String? {
        if UnusableHeight(height) != nil {
            return "a height is a finite number of points, 0 or more, and floorhost shows this row as a placeholder"
        }
        guard height > FLOOR_MAX_ROW_HEIGHT else { return nil }
        return
            "a row is at most \(Int(FLOOR_MAX_ROW_HEIGHT)) points high (FLOOR_MAX_ROW_HEIGHT), and floorhost clamps it to that and reports it"
    }
}
