import FloorText

/// One text_block call (ABI 1.5; docs/ABI.md, "Text layout") as every backend gets it: the plugin's text and
/// arguments, and the block `HostTextLayout` laid out from them, so no backend lays text out on its own.
/// Line i's top is `y + i x block.lineHeight`; a line starts at x, or is centred within `maxWidth` with
/// FLOOR_TEXT_CENTER.
public struct TextBlockDrawing: Sendable, Equatable {
    public let text: String
    public let x: Double
    public let y: Double
    public let maxWidth: Double
    public let maxLines: UInt32
    public let style: UInt32
    public let block: TextBlock

    public init(text: String, x: Double, y: Double, maxWidth: Double, maxLines: UInt32, style: UInt32) {
        self.text = text
        self.x = x
        self.y = y
        self.maxWidth = maxWidth
        self.maxLines = maxLines
        self.style = style
        block = HostTextLayout.block(text, style: style, maxWidth: maxWidth, maxLines: Int(maxLines))
    }

    /// Where line `index` starts, from the cell's left edge.
    public func lineX(_ index: Int) -> Double {
        guard style & 0x8 != 0, maxWidth.isFinite, maxWidth > 0 else { return x }
        return x + max(0, (maxWidth - block.lineWidth(index)) / 2)
    }

    /// Line `index`'s top.
    public func lineY(_ index: Int) -> Double { y + Double(index) * block.lineHeight }
}
