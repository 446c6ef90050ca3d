import HostContract

/// What a row's cell selector drew into a `width` x `height` cell: the canvas calls in order, readable as
/// the lines `floorhost conform --snapshots` stores (DrawingText).
public struct Drawing: CustomStringConvertible, Sendable {
    public let width: Double
    public let height: Double
    public let operations: [RecordingCanvas.Operation]

    /// One line per canvas call: `text x 12 y 16 max_width 351 "First"`.
    public var lines: [String] { operations.map(DrawingText.line) }

    /// The strings drawn by text and text_block calls, in order (a block's whole text).
    public var texts: [String] {
        operations.compactMap {
            switch $0 {
            case .text(let text, _, _, _, _), .textBlock(let text, _, _, _, _, _): text
            default: nil
            }
        }
    }

    /// The lines of each text_block call as the host breaks them (ABI 1.5; docs/ABI.md, "Text layout").
    public var textBlockLines: [[String]] {
        operations.compactMap {
            guard case .textBlock(let text, _, _, let maxWidth, let maxLines, let style) = $0 else { return nil }
            return HostTextLayout.block(text, style: style, maxWidth: maxWidth, maxLines: Int(maxLines)).lines.map(
                \.text)
        }
    }

    /// The sources of the images drawn, in order.
    public var images: [String] {
        operations.compactMap { if case .image(let source, _, _, _, _) = $0 { return source } else { return nil } }
    }

    public var description: String { lines.joined(separator: "\n") }
}
