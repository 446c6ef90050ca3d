import FloorRender
import HostContract

/// One screen of `floorhost view`: the page's rows in the viewport drawn by the text canvas (the pinned
/// sticky header over the top; bold, muted and accent in colour when `viewer.styled`), the selected item in
/// plain reverse video, then the message line and the status line (reverse video). Every line is cut to the
/// terminal's width by display columns; whatever a page or plugin supplied is escaped (TextGrid and
/// ControlCharacters), so the only control sequences are the frame's own.
public enum TerminalFrame {
    /// The frame as terminal lines, `viewer.lines` of them, without cursor movement.
    public static func lines(_ viewer: PageViewer) -> [String] {
        let session = viewer.session
        let adapter = viewer.adapter
        let columns = viewer.columns
        let pageLines = viewer.lines - PageViewer.chromeLines
        let options = TextRenderer.Options(columns: columns, styled: viewer.styled)
        var screen = Array(
            TextRenderer.render(adapter, viewport: session.viewport, options: options)
                .split(separator: "\n", omittingEmptySubsequences: false).prefix(pageLines).map(String.init))
        screen += repeatElement("", count: max(0, pageLines - screen.count))
        // `?`: the full key help over the page, until the next key.
        if viewer.showingHelp {
            let help = KeyHelp.lines(columns: columns).prefix(pageLines).map { fitted($0, columns: columns) }
            screen = help + repeatElement("", count: max(0, pageLines - help.count))
        }
        // The selected item's frame (docs/ABI.md, "Item frames"; a row reporting none gives each item its
        // share of the width) in plain reverse video: its lines, its columns.
        if !viewer.showingHelp, let selected = viewer.selection?.row, let frame = viewer.selectedFrame {
            let row = adapter.describe(row: selected)
            let scrolled = row.y - session.viewport.offset
            let line = TextRenderer.pointsPerLine
            let first = max(0, Int(((scrolled + frame.y) / line).rounded()))
            let end = min(pageLines, Int(((scrolled + frame.y + frame.height) / line).rounded()))
            // Columns as the text draws them (the page's width over the terminal's); a frame is in its cell,
            // which for an item of a collection floor starts at the item's x.
            let perColumn = adapter.width / Double(max(1, columns))
            let cellX = row.column == nil ? 0 : row.x
            let left = max(0, Int(((cellX + frame.x) / perColumn).rounded()))
            let right = min(columns, Int(((cellX + frame.x + frame.width) / perColumn).rounded()))
            for l in first..<max(first, end) {
                screen[l] = reverse(left..<max(left, right), of: padded(unstyled(screen[l]), to: columns))
            }
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
    package static func fitted(_ text: String, columns: Int) -> String {
        var grid = TextGrid(columns: columns, lines: 1)
        grid.text(ControlCharacters.escaped(text), column: 0, line: 0, maxColumns: columns)
        return grid.render()[0]
    }

    /// `line` with spaces up to `columns` display columns, so that reverse video spans the whole width.
    package static func padded(_ line: String, to columns: Int) -> String {
        line + String(repeating: " ", count: max(0, columns - DisplayWidth.of(line)))
    }

    package static func reverse(_ line: String) -> String { "\u{1b}[7m" + line + "\u{1b}[27m" }

    /// `line` (plain text) with the display columns `span` in reverse video; a wide character across the
    /// span's edge goes with the side its first column is on.
    package static func reverse(_ span: Range<Int>, of line: String) -> String {
        var before = ""
        var inside = ""
        var after = ""
        var column = 0
        for character in line {
            if column < span.lowerBound {
                before.append(character)
            } else if column < span.upperBound {
                inside.append(character)
            } else {
                after.append(character)
            }
            column += DisplayWidth.of(String(character))
        }
        return inside.isEmpty ? line : before + reverse(inside) + after
    }

    /// `line` without its SGR sequences (`ESC [ digits ; ... m`): the text renderer's styles are the only
    /// escape sequences a drawn line holds, and a selected row is shown in plain reverse video.
    package static func unstyled(_ line: String) -> String {
        guard line.utf8.contains(0x1B) else { return line }
        var out: [UInt8] = []
        let bytes = Array(line.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x1B, i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") {
                var j = i + 2
                while j < bytes.count, bytes[j] == UInt8(ascii: ";") || (bytes[j] >= 0x30 && bytes[j] <= 0x39) {
                    j += 1
                }
                if j < bytes.count, bytes[j] == UInt8(ascii: "m") {
                    i = j + 1
                    continue
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
