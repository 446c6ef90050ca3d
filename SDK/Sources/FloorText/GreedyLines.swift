/// Greedy line filling over a shaped text: each line takes as many break opportunities' worth of text as
/// fit in `maxWidth` (its trailing white space not counted, as it hangs past the edge in CSS `pre-wrap`); a
/// piece wider than a whole line breaks between grapheme clusters; a mandatory break (a line feed) ends a
/// line. Stops at `limit` lines and says whether text was left (`truncated`). Used under the engine's lock.
struct GreedyLines {
    /// A line's text as UTF-16 offsets, its trailing white space and line break excluded.
    struct Range {
        let start: Int
        let end: Int
    }

    let text: UnsafeBufferPointer<UInt16>
    let prefix: [Double]
    let maxWidth: Double
    let limit: Int
    let breaks: BreakIterators
    /// The lines found; `run` fills it from empty, keeping the storage it was given (`reusing`).
    private(set) var lines: [Range]
    private(set) var truncated = false

    /// Below a millionth of a point, a width that rounds past the limit still fits.
    static let slack = 1e-6

    /// `reusing`: an array whose storage `lines` keeps (the engine's, given back after each layout, so that
    /// a layout allocates no array for its lines: 16 M instructions of the json render of the 8 MB page).
    init(
        text: UnsafeBufferPointer<UInt16>, prefix: [Double], maxWidth: Double, limit: Int, breaks: BreakIterators,
        reusing lines: [Range] = []
    ) {
        self.text = text
        self.prefix = prefix
        self.maxWidth = maxWidth
        self.limit = limit
        self.breaks = breaks
        self.lines = lines
        self.lines.removeAll(keepingCapacity: true)
    }

    func width(_ range: Range) -> Double { prefix[range.end] - prefix[range.start] }

    private func fits(_ start: Int, _ end: Int) -> Bool { prefix[end] - prefix[start] <= maxWidth + Self.slack }

    /// `end` moved back over white space and line breaks, not before `start`.
    func trimmed(start: Int, end: Int) -> Int {
        var end = end
        while end > start {
            switch text[end - 1] {
            case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: end -= 1
            default: return end
            }
        }
        return end
    }

    /// Line feed, carriage return, vertical tab, form feed, NEL, line and paragraph separators: the
    /// characters after which Unicode's rules (UAX #14: BK, CR, LF, NL) always end a line.
    private static func isMandatoryBreak(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    /// Adds a line unless the limit is reached; false (and `truncated`) when it is.
    private mutating func emit(_ start: Int, _ end: Int) -> Bool {
        guard lines.count < limit else {
            truncated = true
            return false
        }
        lines.append(Range(start: start, end: end))
        return true
    }

    mutating func run() {
        // The common case, a text that fits on one line and holds no mandatory break, needs no break
        // iterator: greedy filling would give that one line.
        let whole = trimmed(start: 0, end: text.count)
        if fits(0, whole) && !text.contains(where: Self.isMandatoryBreak) {
            if whole > 0 || !text.isEmpty { _ = emit(0, whole) }
            return
        }
        let opportunities = breaks.opportunities(text)
        var lineStart = 0
        var lastFit: Int?
        var k = 0
        while k < opportunities.count {
            let opportunity = opportunities[k]
            let end = trimmed(start: lineStart, end: opportunity.offset)
            if fits(lineStart, end) {
                if opportunity.hard {
                    guard emit(lineStart, end) else { return }
                    lineStart = opportunity.offset
                    lastFit = nil
                } else {
                    lastFit = opportunity.offset
                }
                k += 1
            } else if let fit = lastFit {
                guard emit(lineStart, trimmed(start: lineStart, end: fit)) else { return }
                lineStart = fit
                lastFit = nil
            } else {
                // One piece wider than the line: as many grapheme clusters as fit, at least one.
                var cut = breaks.graphemeEnd(after: lineStart)
                while cut < end {
                    let next = breaks.graphemeEnd(after: cut)
                    if !fits(lineStart, min(next, end)) { break }
                    cut = next
                }
                if cut >= end {
                    guard emit(lineStart, end) else { return }
                    lineStart = opportunity.offset
                    k += 1
                } else {
                    guard emit(lineStart, cut) else { return }
                    lineStart = cut
                }
            }
        }
        if lineStart < text.count {
            _ = emit(lineStart, trimmed(start: lineStart, end: text.count))
        }
    }
}
