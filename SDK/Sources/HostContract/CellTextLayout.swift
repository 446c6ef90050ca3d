import CellLineBreaks
import FloorText

/// A block in `FLOOR_TEXT_CELL` (style 0): 1.4's cell metrics (docs/ABI.md, "Text metrics"), 5 points a
/// display column and 12-point lines, with control characters counted as the `\uXXXX` escapes they are
/// drawn as (line feeds excepted: they end a line), broken into lines by CellLineBreaks' rules (which the Swift
/// SDK's fallback on a host without layout_text, FloorKit's `CellLines`, shares). Pure; any thread.
public enum CellTextLayout {
    public static let lineHeight = 12.0

    public static func layout(_ text: String, maxWidth: Double, maxLines: Int) -> TextBlock {
        let width = TextLimits.width(maxWidth)
        let columns = width >= Double(Int.max / 8) ? Int.max / 8 : Int(width / TextMeasure.pointsPerColumn)
        let (lines, truncated) = CellLineBreaks.lines(
            of: ControlCharacters.escaped(text, keepingLineBreaks: true), columns: columns,
            limit: maxLines > 0 ? maxLines : Int.max, width: { DisplayWidth.of(String($0)) })
        return TextBlock(
            lines: lines.map { TextBlock.Line(text: $0, width: TextMeasure.points($0)) }, lineHeight: lineHeight,
            truncated: truncated)
    }
}
