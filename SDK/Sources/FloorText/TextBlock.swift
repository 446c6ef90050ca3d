/// A block of text laid out at a width: its lines as the host breaks them, what
/// floor_host_t.layout_text answers and what text_block draws (docs/ABI.md, "Text layout").
///
/// The engine's blocks keep their lines as byte ranges of the laid-out text (one copy of its UTF-8, shared
/// with the engine's cache, and a few bytes a line, in one allocation: `LaidOutText`), not as Strings: the
/// text preview draws a line from its bytes (`withLineUTF8`), so no String is made for it. `lines` makes
/// them when asked.
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

    /// A line of the laid-out text: its bytes start..<end (on scalar boundaries) and its width in points
    /// (the ellipsis's included on a cut last line).
    struct Span: Sendable {
        let start: Int32
        let end: Int32
        let width: Double
    }

    /// Unchecked: a `LaidOutText` (a ManagedBuffer, which is not Sendable) is never written once made.
    private enum Storage: @unchecked Sendable {
        case lines([Line])
        /// The text's valid UTF-8 and its lines; when `truncated`, the last one is followed by "…".
        case spans(LaidOutText)
    }

    private let storage: Storage
    /// The widest line, in points.
    public let width: Double
    /// The style's line height: line i's top is i x this.
    public let lineHeight: Double
    /// Whether a line limit cut the text (its last line ends in an ellipsis).
    public let truncated: Bool
    /// Whether every character of the text is a plain one (PlainLines': printable ASCII, ¢ £ ¥, CJK unified
    /// ideographs), laid out on the plain path: a line (its ellipsis included) takes one terminal column a character
    /// and two an ideograph, and needs no escape.
    public let isPlain: Bool

    public init(lines: [Line], lineHeight: Double, truncated: Bool) {
        storage = .lines(lines)
        self.width = lines.reduce(0) { max($0, $1.width) }
        self.lineHeight = lineHeight
        self.truncated = truncated
        isPlain = false
    }

    /// The engine's block: `lineCount` lines of `utf8` (valid UTF-8), which `spans` writes (each in order,
    /// into memory of that many spans); when `truncated`, the last span is followed by "…". `plain`: laid out on
    /// the plain path (`isPlain`).
    init(
        utf8: UnsafeRawBufferPointer, lineCount: Int, lineHeight: Double, truncated: Bool, plain: Bool,
        spans: (UnsafeMutablePointer<Span>) -> Void
    ) {
        let text = LaidOutText.make(utf8: utf8, lines: lineCount, spans)
        storage = .spans(text)
        self.width = text.width
        self.lineHeight = lineHeight
        self.truncated = truncated
        isPlain = plain
    }

    /// The engine's block: `spans` of `utf8` (valid UTF-8); when `truncated`, the last span is followed by "…".
    init(utf8: UnsafeRawBufferPointer, spans: [Span], lineHeight: Double, truncated: Bool) {
        self.init(utf8: utf8, lineCount: spans.count, lineHeight: lineHeight, truncated: truncated, plain: false) {
            out in
            for (i, span) in spans.enumerated() { out[i] = span }
        }
    }

    /// Calls `body` with the laid-out text's UTF-8 (the arguments' text, for the engine's cache to compare
    /// without a copy of its own); nil for a block made of Strings.
    func withUTF8(_ body: (UnsafeRawBufferPointer) -> Bool) -> Bool? {
        if case .spans(let text) = storage { text.withUTF8(body) } else { nil }
    }

    public var lineCount: Int {
        switch storage {
        case .lines(let lines): lines.count
        case .spans(let text): text.lineCount
        }
    }

    /// The lines as Strings (made on each call for the engine's blocks).
    public var lines: [Line] {
        switch storage {
        case .lines(let lines): return lines
        case .spans:
            return (0..<lineCount).map { i in
                var text = ""
                withLineUTF8(i) { text = String(decoding: $0, as: UTF8.self) }
                return Line(text: text, width: lineWidth(i))
            }
        }
    }

    /// Line `index`'s width in points.
    public func lineWidth(_ index: Int) -> Double {
        switch storage {
        case .lines(let lines): lines[index].width
        case .spans(let text): text.span(index).width
        }
    }

    /// Calls `body` with line `index`'s text as UTF-8 (the ellipsis included), valid only during the call.
    /// (Not generic: a generic call across modules cost more than drawing the line.)
    public func withLineUTF8(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard let (line, cut) = engineLine(index) else {
            guard case .lines(let lines) = storage else { return }
            var text = lines[index].text
            return text.withUTF8(body)
        }
        guard cut else { return body(line) }
        let count = line.count
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + 3) { buffer in
            _ = buffer.initialize(from: line)
            buffer[count] = 0xE2  // U+2026 HORIZONTAL ELLIPSIS
            buffer[count + 1] = 0x80
            buffer[count + 2] = 0xA6
            body(UnsafeBufferPointer(buffer))
        }
    }

    /// An engine block's line `index`: its bytes, valid while the block is, and whether "…" follows them (the last
    /// line of a cut text); nil for a block of Strings. The text is looked at here, apart from the call that reads
    /// the bytes: a text bound in the same switch as that call was retained around it (104,000 times each way
    /// drawing the 8 MB page's text preview).
    private func engineLine(_ index: Int) -> (UnsafeBufferPointer<UInt8>, cut: Bool)? {
        guard case .spans(let text) = storage else { return nil }
        return (text.line(index), truncated && index == text.lineCount - 1)
    }

    /// `lines` x the line height.
    public var height: Double { Double(lineCount) * lineHeight }

    public static func empty(lineHeight: Double) -> TextBlock {
        TextBlock(lines: [], lineHeight: lineHeight, truncated: false)
    }

    /// Equal lines (texts and widths), line height and cut, however each block keeps its lines.
    public static func == (a: TextBlock, b: TextBlock) -> Bool {
        a.lineHeight == b.lineHeight && a.truncated == b.truncated && a.lineCount == b.lineCount && a.lines == b.lines
    }
}
