import FloorText

/// A block in `FLOOR_TEXT_CELL` (style 0): 1.4's cell metrics (docs/ABI.md, "Text metrics"), 5 points a
/// display column and 12-point lines, with control characters counted as the `\uXXXX` escapes they are
/// drawn as (line feeds excepted: they end a line). Lines break after spaces and on either side of a
/// double-width character; a word longer than a line breaks between characters; a cut last line ends in
/// "…" (one column). The Swift SDK's fallback on a host without layout_text (FloorKit's `CellLines`)
/// follows the same rules. Pure; any thread.
public enum CellTextLayout {
    public static let lineHeight = 12.0

    public static func layout(_ text: String, maxWidth: Double, maxLines: Int) -> TextBlock {
        let width = TextLimits.width(maxWidth)
        let columns = width >= Double(Int.max / 8) ? Int.max / 8 : Int(width / TextMeasure.pointsPerColumn)
        let limit = maxLines > 0 ? maxLines : Int.max
        var lines: [[Character]] = []
        var truncated = false
        paragraphs: for paragraph in ControlCharacters.escaped(text, keepingLineBreaks: true).split(
            separator: "\n", omittingEmptySubsequences: false)
        {
            var line: [Character] = []
            var used = 0
            var lastBreak: (index: Int, used: Int)?
            func flush(_ characters: [Character]) -> Bool {
                guard lines.count < limit else {
                    truncated = true
                    return false
                }
                lines.append(characters)
                return true
            }
            for character in paragraph {
                let w = DisplayWidth.of(String(character))
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
        var result = lines.map { characters -> TextBlock.Line in
            var trimmed = characters
            while trimmed.last == " " { trimmed.removeLast() }
            let s = String(trimmed)
            return TextBlock.Line(text: s, width: TextMeasure.points(s))
        }
        if truncated, let last = result.last {
            var kept = Array(last.text)
            while !kept.isEmpty && DisplayWidth.of(String(kept)) + 1 > columns { kept.removeLast() }
            while kept.last == " " { kept.removeLast() }
            let s = String(kept) + "\u{2026}"
            result[result.count - 1] = TextBlock.Line(text: s, width: TextMeasure.points(s))
        }
        return TextBlock(lines: result, lineHeight: lineHeight, truncated: truncated)
    }
}
