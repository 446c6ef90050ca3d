/// A block of text laid out at a width: its lines as the host breaks them, what
/// floor_host_t.layout_text answers and what text_block draws (docs/ABI.md, "Text layout").
public struct TextBlock: Sendable, Equatable {
    /// One line: what it shows (the ellipsis included on a cut last line; the trailing white space and
    /// the line break left out) and its width in points.
    public struct Line: Sendable, Equatable {
        public let text: String
        public let width: Double

        public init(text: String, width: Double) {
            self.text = text
            self.width = width
        }
    }

    public let lines: [Line]
    /// The widest line, in points.
    public let width: Double
    /// The style's line height: line i's top is i x this.
    public let lineHeight: Double
    /// Whether a line limit cut the text (its last line ends in an ellipsis).
    public let truncated: Bool

    public init(lines: [Line], lineHeight: Double, truncated: Bool) {
        self.lines = lines
        self.width = lines.reduce(0) { max($0, $1.width) }
        self.lineHeight = lineHeight
        self.truncated = truncated
    }

    /// `lines` x the line height.
    public var height: Double { Double(lines.count) * lineHeight }

    public static func empty(lineHeight: Double) -> TextBlock {
        TextBlock(lines: [], lineHeight: lineHeight, truncated: false)
    }
}
