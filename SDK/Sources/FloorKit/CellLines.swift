/// A block in cell metrics, the SDK's own, for a host without ABI 1.5's layout_text and text_block (a 1.4
/// host): 5 points a column (10 for a wide character, `TextMetrics.estimate`) and 12-point lines, whatever
/// the style, since such a host draws every line in cells. The rules are the host's `CellTextLayout`
/// (HostContract): lines break after spaces and on either side of a wide character, a longer word between
/// characters, and a cut last line ends in "…".
enum CellLines {
    static let lineHeight = 12.0

    static func lines(_ text: String, width: Double, maxLines: Int) -> (lines: [String], truncated: Bool) {
        let usable = width.isNaN || width < 0 ? 0 : width
        let columns = usable >= Double(Int.max / 8) ? Int.max / 8 : Int(usable / 5)
        let limit = maxLines > 0 ? maxLines : Int.max
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
                let w = Int(TextMetrics.estimate(String(character)) / 5)
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
            while !kept.isEmpty && Int(TextMetrics.estimate(String(kept)) / 5) + 1 > columns { kept.removeLast() }
            while kept.last == " " { kept.removeLast() }
            result[result.count - 1] = String(kept) + "\u{2026}"
        }
        return (result, truncated)
    }

    static func layout(_ text: String, width: Double, maxLines: Int) -> TextLayout {
        let (lines, truncated) = self.lines(text, width: width, maxLines: maxLines)
        let widest = lines.map { TextMetrics.estimate($0) }.max() ?? 0
        return TextLayout(
            lines: lines.count, width: widest, height: Double(lines.count) * lineHeight, truncated: truncated)
    }
}
