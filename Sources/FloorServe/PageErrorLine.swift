import FloorRuntime
import HostContract

/// The line of a page file an error points at (`file:line:column`), as the tab shows it over the phone:
/// the line's text around the column, with control characters shown as `\uXXXX` (the tab puts it in the
/// document as text, never as markup), and where the caret goes. The file was read through the root
/// already (it decoded far enough to fail at a position), so quoting it tells nothing the root refuses.
///
/// Bounds: the file is read once, through PageRoot's size limit; the excerpt is at most `maxLength`
/// characters, cut around the column with `…` at a cut end.
package struct PageErrorLine: Sendable, Equatable {
    package let line: Int
    package let text: String
    /// Characters (Unicode scalars) of `text` before the one the error is at.
    package let caret: Int

    package static let maxLength = 120

    package static func of(_ error: PageError, root: PageRoot) -> PageErrorLine? {
        guard let line = error.line, let column = error.column, line >= 1,
            let bytes = try? root.read(error.file)
        else { return nil }
        var start = 0
        var current = 1
        while current < line {
            guard let newline = bytes[start...].firstIndex(of: 10) else { return nil }
            start = newline + 1
            current += 1
        }
        var end = bytes[start...].firstIndex(of: 10) ?? bytes.count
        if end > start, bytes[end - 1] == 13 { end -= 1 }
        let scalars = Array(String(decoding: bytes[start..<end], as: UTF8.self).unicodeScalars)
        var at = max(0, min(column - 1, scalars.count))
        var from = 0
        var to = scalars.count
        if to > maxLength {
            from = max(0, min(at - maxLength / 2, scalars.count - maxLength))
            to = from + maxLength
        }
        var text = ""
        if from > 0 { text += "…" }
        var caret = from > 0 ? 1 : 0
        for (i, scalar) in scalars[from..<to].enumerated() {
            let shown = ControlCharacters.escaped(String(scalar))
            if from + i < at { caret += shown.unicodeScalars.count }
            text += shown
        }
        if to < scalars.count { text += "…" }
        at = caret
        return PageErrorLine(line: line, text: text, caret: at)
    }
}
