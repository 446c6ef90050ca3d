/// Lines of text in terminal cells, by the rules of ABI 1.4's cell metrics (docs/ABI.md, "Text metrics"): a line
/// breaks after a space and on either side of a double-width character, a word longer than a line breaks between
/// characters, spaces at a line's start (after a break) and end are dropped, a line feed ends a line, and a last
/// line cut by the line limit ends in "…" (one column). The one implementation of the rules: the host lays out
/// `FLOOR_TEXT_CELL` texts with it (HostContract's `CellTextLayout`, with the display widths of the grid) and the
/// Swift SDK its fallback on a host without layout_text (FloorKit's `CellLines`, with its own estimate), so the
/// two break alike. Pure, no dependency: any thread, and what every plugin links costs it nothing more.
public enum CellLineBreaks {
    /// `text`'s lines, at most `columns` wide (a character as wide as `width` says) and `limit` of them, and
    /// whether lines were left out. An empty text has no line.
    public static func lines(
        of text: String, columns: Int, limit: Int, width: (Character) -> Int
    ) -> (lines: [String], truncated: Bool) {
        var lines: [[Character]] = []
        var truncated = false
        func flush(_ characters: [Character]) -> Bool {
            guard lines.count < limit else {
                truncated = true
                return false
            }
            lines.append(characters)
            return true
        }
        paragraphs: for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line: [Character] = []
            var used = 0
            var lastBreak: (index: Int, used: Int)?
            for character in paragraph {
                let w = width(character)
                if w == 2, !line.isEmpty { lastBreak = (line.count, used) }
                if used + w > columns && character != " " && !line.isEmpty {
                    if let cut = lastBreak, cut.index > 0 {
                        guard flush(Array(line[..<cut.index])) else { break paragraphs }
                        line = Array(line[cut.index...])
                        used -= cut.used
                    } else {
                        guard flush(line) else { break paragraphs }
                        line = []
                        used = 0
                    }
                    lastBreak = nil
                    while line.first == " " {
                        line.removeFirst()
                        used -= 1
                    }
                }
                line.append(character)
                used += w
                if character == " " || w == 2 { lastBreak = (line.count, used) }
            }
            guard flush(line) else { break }
        }
        if text.isEmpty { lines = [] }
        var result = lines.map { characters -> String in
            var trimmed = characters
            while trimmed.last == " " { trimmed.removeLast() }
            return String(trimmed)
        }
        if truncated, let last = result.last {
            var kept = Array(last)
            while !kept.isEmpty && kept.reduce(0, { $0 + width($1) }) + 1 > columns { kept.removeLast() }
            while kept.last == " " { kept.removeLast() }
            result[result.count - 1] = String(kept) + "\u{2026}"
        }
        return (result, truncated)
    }
}
