import CFloorABI

/// Text widths for height calculators, which get no canvas (docs/ABI.md, "Measuring"): a height that
/// follows a title's length measures it here, and `Canvas.measure` returns the same number when drawing.
///
///     height: { floor, item, width in
///         TextMetrics.width(of: floor.items[item].title, style: .bold) > width - 124 ? 120 : 108 }
///
/// Contract: the host's width when it is ABI 1.4 or later (floor_host_t.measure_text: 5 points a display
/// column of the text backend); under a 1.3 host, the SDK's estimate of the same rule (10 points for East
/// Asian wide characters, 0 for combining marks and format characters, 5 for the rest), which agrees with
/// the host for ordinary text; a U+0000 is measured as `Canvas.text` draws it (`\u0000`). Call only during
/// a call the host makes into the plugin, on its thread.
public enum TextMetrics {
    public static func width(of text: String, style: TextStyle = []) -> Double {
        if let host = FloorPlugin.host,
            StructSize.reaches(host.pointee.struct_size, \floor_host_t.measure_text),
            let measure = host.pointee.measure_text
        {
            return Canvas.whole(text).withCString { measure(host, $0, style.rawValue) }
        }
        return estimate(text)
    }

    /// A block of `text` in `font` wrapped at `width` points, at most `maxLines` lines (0: no limit; a cut
    /// text's last line ends in an ellipsis): how many lines, the widest, and the height (lines x the
    /// font's line height), for a height calculator whose row grows with its text:
    ///
    ///     height: { floor, item, width in
    ///         12 + TextMetrics.layout(floor.items[item].title, font: .body, width: width - 24, maxLines: 2).height }
    ///
    /// Contract (docs/ABI.md, "Text layout"): the host's floor_host_t.layout_text, which gives the same
    /// answer as the canvas's `layout` and draws the same lines with `Canvas.textBlock`. On a host without it
    /// (before ABI 1.5) the SDK lays the block out in cell metrics (5 points a character, 12-point lines),
    /// as such a host then draws it. The text goes with its byte length: U+0000 does not end it. Call only
    /// during a call the host makes into the plugin, on its thread.
    public static func layout(
        _ text: String, font: TextFont, style: TextStyle = [], width: Double, maxLines: Int = 0
    ) -> TextLayout {
        if let host = FloorPlugin.host,
            StructSize.reaches(host.pointee.struct_size, \floor_host_t.layout_text),
            let layout = host.pointee.layout_text
        {
            return TextLayout.measure(text, word: font.word(style), width: width, maxLines: maxLines) {
                layout(host, $0, $1, $2, $3, $4, $5)
            }
        }
        return CellLines.layout(text, width: width, maxLines: maxLines)
    }

    /// The 1.3 fallback: the ABI's layout rule with a small table of wide and zero-width scalars.
    static func estimate(_ text: String) -> Double {
        var points = 0.0
        for scalar in text.unicodeScalars {
            let v = scalar.value
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format, .control: continue
            default: break
            }
            let wide =
                (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
                || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
            points += wide ? 10 : 5
        }
        return points
    }
}
