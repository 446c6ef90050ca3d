/// What a laid-out text measures, without its lines: what a plugin's `layout_text` is answered with
/// (docs/ABI.md, "Text layout"). `TextEngine.measures` gives them without making a block when no one would
/// draw it.
public struct TextMeasures: Equatable, Sendable {
    public let lines: Int
    /// The widest line, in points (a cut text's last line with its ellipsis).
    public let width: Double
    /// `lines` x the style's line height.
    public let height: Double
    /// Whether a line limit cut the text.
    public let truncated: Bool

    public init(lines: Int, width: Double, height: Double, truncated: Bool) {
        self.lines = lines
        self.width = width
        self.height = height
        self.truncated = truncated
    }

    /// `block`'s.
    public init(_ block: TextBlock) {
        self.init(lines: block.lineCount, width: block.width, height: block.height, truncated: block.truncated)
    }

    /// A text of no characters.
    public static let empty = TextMeasures(lines: 0, width: 0, height: 0, truncated: false)
}
