/// One screen of `floorhost view`: the page's rows in the viewport drawn by the text canvas (the pinned
/// sticky header over the top), the selected row in reverse video, then the message line and the status
/// line (reverse video). Every line is cut to the terminal's width by display columns; whatever a page or
/// plugin supplied is escaped (TextGrid and ControlCharacters), so the only control sequences are the
/// frame's own.
public enum TerminalFrame {
    /// The frame as terminal lines, `viewer.lines` of them, without cursor movement.
    public static func lines(_ viewer: PageViewer) -> [String] {
        let session = viewer.session, adapter = viewer.adapter, columns = viewer.columns
        let pageLines = viewer.lines - PageViewer.chromeLines
        var screen = Array(TextRenderer.render(adapter, viewport: session.viewport, columns: columns)
            .split(separator: "\n", omittingEmptySubsequences: false).prefix(pageLines).map(String.init))
        screen += repeatElement("", count: max(0, pageLines - screen.count))
        if let selected = viewer.selection?.row {
            let row = adapter.describe(row: selected), top = session.viewport.offset
            let first = max(0, Int(((row.y - top) / TextRenderer.pointsPerLine).rounded()))
            let end = min(pageLines, Int(((row.y + row.height - top) / TextRenderer.pointsPerLine).rounded()))
            for l in first..<max(first, end) { screen[l] = reverse(padded(screen[l], to: columns)) }
        }
        screen.append(fitted(viewer.message, columns: columns))
        screen.append(reverse(padded(fitted(viewer.status, columns: columns), to: columns)))
        return screen
    }

    /// The bytes that draw `lines` over the whole screen: home, each line with the rest of it erased.
    public static func bytes(_ lines: [String]) -> [UInt8] {
        Array(("\u{1b}[H" + lines.joined(separator: "\u{1b}[K\r\n") + "\u{1b}[K").utf8)
    }

    /// `text` with control characters escaped, cut to `columns` display columns ("…" where cut).
    static func fitted(_ text: String, columns: Int) -> String {
        var grid = TextGrid(columns: columns, lines: 1)
        grid.text(ControlCharacters.escaped(text), column: 0, line: 0, maxColumns: columns)
        return grid.render()[0]
    }

    /// `line` with spaces up to `columns` display columns, so that reverse video spans the whole width.
    static func padded(_ line: String, to columns: Int) -> String {
        line + String(repeating: " ", count: max(0, columns - DisplayWidth.of(line)))
    }

    static func reverse(_ line: String) -> String { "\u{1b}[7m" + line + "\u{1b}[27m" }
}
