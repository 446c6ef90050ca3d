/// How far before the end load-more starts: in rows (the classic pull-up rule's `count − 4`, `--load-more-distance`), in
/// screens (Texture's leadingScreensForBatching, 2 by default there: `--prefetch 2screens`), or both, in
/// which case whichever is reached first starts the load.
///
/// - rows N: a row with index >= max(0, count − N) is displayed (count: floors' rows, not the footer).
/// - screens S: the content left below the viewport's bottom edge is at most S viewport heights.
public struct Prefetch: Sendable, Equatable, CustomStringConvertible {
    /// The last rows that trigger a load (at least 1), or nil for no row rule.
    public let rows: Int?
    /// Viewport heights of content left below the screen (more than 0), or nil for no screen rule.
    public let screens: Double?

    /// At least one rule; nil when neither is given.
    public init?(rows: Int? = nil, screens: Double? = nil) {
        guard rows != nil || screens != nil else { return nil }
        self.rows = rows.map { max(1, $0) }
        self.screens = screens.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        guard self.rows != nil || self.screens != nil else { return nil }
    }

    /// The classic pull-up rule: the last 4 rows.
    public static let standard = Prefetch(rows: 4)!

    /// Whether either rule is reached. `lastDisplayedRow`: the highest row on screen (nil when none);
    /// `rowCount`: rows of floors; `screensBelow`: content below the viewport's bottom edge, in viewport heights.
    public func reached(lastDisplayedRow: Int?, rowCount: Int, screensBelow: Double) -> Bool {
        if let rows, (lastDisplayedRow ?? -1) >= max(0, rowCount - rows) { return true }
        if let screens, screensBelow <= screens { return true }
        return false
    }

    public var description: String {
        [rows.map { "\($0)rows" }, screens.map { "\($0 == $0.rounded() ? String(Int($0)) : String($0))screens" }]
            .compactMap { $0 }.joined(separator: " or ")
    }

    /// One `--prefetch` value: `Nrows` or `Sscreens` (S may have a fraction: `1.5screens`).
    public enum Distance: Sendable, Equatable, CustomStringConvertible {
        case rows(Int)
        case screens(Double)

        /// As `--prefetch` takes it: `4rows`, `1.5screens`.
        public var description: String {
            switch self {
            case .rows(let n): "\(n)rows"
            case .screens(let s): "\(s)screens"
            }
        }

        public static let form =
            "expected N rows or S screens, e.g. --prefetch 4rows or --prefetch 2screens (Texture's default); give both to load at whichever comes first"

        public static func parse(_ argument: String) throws(PrefetchFormError) -> Distance {
            let text = argument.lowercased()
            let unit = ["screens", "screen", "rows", "row"].first { text.hasSuffix($0) }
            guard let unit, let n = Double(text.dropLast(unit.count)) else { throw PrefetchFormError(message: form) }
            if unit.hasPrefix("screen") {
                guard n > 0, n.isFinite else {
                    throw PrefetchFormError(message: "\(argument): screens must be more than 0; \(form)")
                }
                return .screens(n)
            }
            guard n >= 1, n == n.rounded(), n <= 1_000_000_000 else {
                throw PrefetchFormError(message: "\(argument): rows must be a whole number from 1; \(form)")
            }
            return .rows(Int(n))
        }
    }

    /// The rule `distances` give (the last of each kind wins), or nil when empty.
    public init?(_ distances: [Distance]) {
        var rows: Int?
        var screens: Double?
        for distance in distances {
            switch distance {
            case .rows(let n): rows = n
            case .screens(let s): screens = s
            }
        }
        self.init(rows: rows, screens: screens)
    }
}

/// A `--prefetch` value of the wrong form, with the form expected.
public struct PrefetchFormError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
