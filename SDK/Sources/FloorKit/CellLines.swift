import CellLineBreaks

/// A block in cell metrics, the SDK's own, for a host without ABI 1.5's layout_text and text_block (a 1.4
/// host): 5 points a column (10 for a wide character, `TextMetrics.estimate`) and 12-point lines, whatever
/// the style, since such a host draws every line in cells. The lines are broken by CellLineBreaks, the rules the
/// host's `CellTextLayout` (HostContract) breaks by too.
enum CellLines {
    static let lineHeight = 12.0

    static func lines(_ text: String, width: Double, maxLines: Int) -> (lines: [String], truncated: Bool) {
        let usable = width.isNaN || width < 0 ? 0 : width
        let columns = usable >= Double(Int.max / 8) ? Int.max / 8 : Int(usable / 5)
        return CellLineBreaks.lines(
            of: text, columns: columns, limit: maxLines > 0 ? maxLines : Int.max,
            width: { Int(TextMetrics.estimate(String($0)) / 5) })
    }

    static func layout(_ text: String, width: Double, maxLines: Int) -> TextLayout {
        let (lines, truncated) = self.lines(text, width: width, maxLines: maxLines)
        let widest = lines.map { TextMetrics.estimate($0) }.max() ?? 0
        return TextLayout(
            lines: lines.count, width: widest, height: Double(lines.count) * lineHeight, truncated: truncated)
    }
}
