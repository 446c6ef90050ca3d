/// A text of plain characters broken into lines straight from its UTF-8: the engine's path for what nearly
/// every title and price is. Plain characters are printable ASCII, ¢ £ ¥ and the CJK unified ideographs
/// (U+4E00-U+9FFF): each one UTF-16 unit, one grapheme cluster, never a mandatory break, and drawn by a face
/// `Shaper` picks from the character alone. One pass over the bytes checks them and notes each character's
/// unit, face and line-breaking class (a block's byte ranges are found from the lines after); each piece (`Shaper`'s: a word with the spaces before it,
/// of one face) is measured from its face's plain characters (`PlainGlyphs.advances`: the advances and
/// kerned pairs HarfBuzz gives, no shaping), or, when one of them is not plain there (a ligature, "ff"), as
/// the general path measures it; the lines are filled as `GreedyLines` fills them, over the break
/// opportunities of `BreakIterators.plainOpportunities`, found as they are needed.
///
/// Exact: the same running sums of the same advances, the same opportunities, the same greedy fit and
/// ellipsis, so the same lines and widths, to the bit, as the general path (`TextEngine`'s UTF-16 transcode,
/// `Shaper.advances`, `GreedyLines`); PlainLinesTests compares the two over the benchmark pages' titles and
/// prices and generated texts. A text this does not take (`run` false) goes to the general path whole.
///
/// Allocates nothing a text: its working memory is kept from call to call, grown to the longest text. Used
/// under the engine's lock.
final class PlainLines {
    /// A character's class for line breaking (UAX #14's AL and NU, SP, QU, ID), and the other plain characters,
    /// which `plainOpportunities`' rules do not cover.
    private enum Kind {
        static let letterOrDigit: UInt8 = 1
        static let space: UInt8 = 2
        static let quotation: UInt8 = 3
        static let ideograph: UInt8 = 4
        static let other: UInt8 = 5
    }

    private var capacity = 0
    /// By character: its UTF-16 unit, `Kind`, the face `Shaper.pick` gives it, its advance in points; and the
    /// running sums of the advances (count + 1).
    private var units = UnsafeMutablePointer<UInt16>.allocate(capacity: 0)
    private var kinds = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    private var picks = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    private var advances = UnsafeMutablePointer<Double>.allocate(capacity: 0)
    private var prefix = UnsafeMutablePointer<Double>.allocate(capacity: 0)
    /// By character: where its bytes start in the text (count + 1: the last is the text's length), so that
    /// a block's spans are found a line at a time, not by walking the bytes again.
    private var byteStarts = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
    /// The lines found, in memory grown as lines are (a long text at a narrow width has many).
    private var lineCapacity = 0
    private var lineStarts = UnsafeMutablePointer<Int>.allocate(capacity: 0)
    private var lineEnds = UnsafeMutablePointer<Int>.allocate(capacity: 0)

    /// The last text's characters, lines and whether the line limit cut it.
    private(set) var count = 0
    private(set) var lineCount = 0
    private(set) var truncated = false
    private var maxWidth = 0.0
    private var limit = 0

    /// By ASCII byte: its `Kind`, 0 for a control character.
    private let asciiKinds = UnsafeMutablePointer<UInt8>.allocate(capacity: 0x80)

    init() {
        for byte in 0..<0x80 {
            let kind: UInt8
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: kind = Kind.letterOrDigit
            case 0x20: kind = Kind.space
            case 0x22: kind = Kind.quotation
            case 0x21...0x7E: kind = Kind.other
            default: kind = 0
            }
            asciiKinds[byte] = kind
        }
    }

    deinit {
        release()
        lineStarts.deallocate()
        lineEnds.deallocate()
        asciiKinds.deallocate()
        breaksBetween.deallocate()
    }

    private func release() {
        units.deallocate()
        kinds.deallocate()
        picks.deallocate()
        advances.deallocate()
        prefix.deallocate()
        byteStarts.deallocate()
    }

    private func reserve(_ n: Int) {
        guard n > capacity else { return }
        release()
        capacity = max(n, 2 * capacity, 64)
        units = .allocate(capacity: capacity)
        kinds = .allocate(capacity: capacity)
        picks = .allocate(capacity: capacity)
        advances = .allocate(capacity: capacity)
        prefix = .allocate(capacity: capacity + 1)
        byteStarts = .allocate(capacity: capacity + 1)
    }

    /// Lays out `utf8` (already bounded: `TextEngine.bounded`) in `faces` at `pointSize` within `maxWidth`
    /// points, at most `limit` lines; false, with nothing to read, when the text is not made of plain
    /// characters, when the faces' sans or CJK face is missing, or when it takes more than one line and holds
    /// a character the plain line-breaking rules do not cover (punctuation but '"') or starts with a space.
    func run(
        _ utf8: UnsafeRawBufferPointer, faces: Shaper.Faces, shaper: Shaper, pointSize: Double, maxWidth: Double,
        limit: Int
    ) -> Bool {
        guard faces.sans != nil, faces.cjk != nil else { return false }
        let bytes = utf8.count
        reserve(bytes)
        self.maxWidth = maxWidth
        self.limit = limit
        lineCount = 0
        truncated = false
        // Each character checked and noted: its unit, line-breaking class and face. Local copies of the
        // scratch, so that no store through one makes the loop load the others again.
        let units = self.units
        let kinds = self.kinds
        let picks = self.picks
        let byteStarts = self.byteStarts
        let asciiKinds = self.asciiKinds
        var others = false
        // Whether a character's face was not known yet (worked out after the loop, which so makes no call).
        var unknownPicks = false
        var n = 0
        var i = 0
        while i < bytes {
            let lead = utf8[i]
            byteStarts[n] = Int32(truncatingIfNeeded: i)
            if lead < 0x80 {
                let kind = asciiKinds[Int(lead)]
                guard kind != 0 else { return false }
                units[n] = UInt16(lead)
                picks[n] = 0  // `Shaper.pick`: ASCII is the sans face's when there is one
                kinds[n] = kind
                others = others || kind == Kind.other
                i += 1
            } else if lead == 0xC2 {
                // ¢ £ ¥
                guard i + 1 < bytes else { return false }
                let second = utf8[i + 1]
                guard second == 0xA2 || second == 0xA3 || second == 0xA5 else { return false }
                units[n] = UInt16(second)
                let pick = faces.knownPick(UInt32(second))
                picks[n] = pick
                unknownPicks = unknownPicks || pick == 0xFF
                kinds[n] = Kind.other
                others = true
                i += 2
            } else {
                // U+4E00-U+9FFF: E4 B8 80 to E9 BF BF.
                guard lead >= 0xE4 && lead <= 0xE9, i + 2 < bytes else { return false }
                let second = utf8[i + 1]
                let third = utf8[i + 2]
                guard second & 0xC0 == 0x80, third & 0xC0 == 0x80 else { return false }
                let scalar = UInt32(lead & 0x0F) << 12 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F)
                guard scalar >= 0x4E00 else { return false }
                units[n] = UInt16(truncatingIfNeeded: scalar)
                let pick = faces.knownPick(scalar)
                picks[n] = pick
                unknownPicks = unknownPicks || pick == 0xFF
                kinds[n] = Kind.ideograph
                i += 3
            }
            n += 1
        }
        count = n
        byteStarts[n] = Int32(truncatingIfNeeded: bytes)
        guard n > 0 else { return true }
        if unknownPicks {
            for k in 0..<n where picks[k] == 0xFF { picks[k] = shaper.pick(UInt32(units[k]), faces: faces) }
        }

        // The pieces `Shaper.advances` measures (a word with the spaces before it, within one face), each from
        // its face's plain characters, or as the general path measures it; then the running sums.
        let text = UnsafeBufferPointer(start: units, count: n)
        let advances = self.advances
        var start = 0
        while start < n {
            let end = Self.pieceEnd(after: start, units: units, picks: picks, count: n)
            shaper.plainPiece(
                text, start: start, end: end, pick: picks[start], faces: faces, pointSize: pointSize, into: advances)
            start = end
        }
        let prefix = self.prefix
        var sum = 0.0
        prefix[0] = 0
        for k in 0..<n {
            sum += advances[k]
            prefix[k + 1] = sum
        }

        // GreedyLines.run, with the opportunities found one after another.
        let whole = trimmed(0, n)
        if fits(0, whole) {
            _ = emit(0, whole)
            return true
        }
        guard !others, units[0] != 0x20 else { return false }
        var lineStart = 0
        var lastFit = -1
        var opportunity = self.opportunity(after: 0)
        while true {
            let end = trimmed(lineStart, opportunity)
            if fits(lineStart, end) {
                lastFit = opportunity
                if opportunity >= n { break }
                opportunity = self.opportunity(after: opportunity)
            } else if lastFit >= 0 {
                guard emit(lineStart, trimmed(lineStart, lastFit)) else { return true }
                lineStart = lastFit
                lastFit = -1
            } else {
                // One piece wider than the line: as many characters (each a grapheme cluster) as fit, at least one.
                var cut = lineStart + 1
                while cut < end {
                    let next = cut + 1
                    if !fits(lineStart, min(next, end)) { break }
                    cut = next
                }
                if cut >= end {
                    guard emit(lineStart, end) else { return true }
                    lineStart = opportunity
                    if opportunity >= n { break }
                    opportunity = self.opportunity(after: opportunity)
                } else {
                    guard emit(lineStart, cut) else { return true }
                    lineStart = cut
                }
            }
        }
        if lineStart < n { _ = emit(lineStart, trimmed(lineStart, n)) }
        return true
    }

    /// Where the piece that starts at character `start` ends (`Shaper.advances`' pieces).
    private static func pieceEnd(
        after start: Int, units: UnsafeMutablePointer<UInt16>, picks: UnsafeMutablePointer<UInt8>, count: Int
    ) -> Int {
        let pick = picks[start]
        var end = start + 1
        if units[start] == 0x20 {
            while end < count && picks[end] == pick && units[end] == 0x20 { end += 1 }
        }
        while end < count && picks[end] == pick && units[end] != 0x20 { end += 1 }
        return end
    }

    /// The first break opportunity after `offset` (`BreakIterators.plainOpportunities`' rules), else the end.
    private func opportunity(after offset: Int) -> Int {
        let kinds = self.kinds
        let breaksBetween = self.breaksBetween
        var previous = Int(kinds[offset])
        var i = offset + 1
        while i < count {
            let current = Int(kinds[i])
            if breaksBetween[previous &<< 3 | current] { return i }
            previous = current
            i += 1
        }
        return count
    }

    /// By `Kind` before and after (before x 8 + after): whether a line may break between them, by
    /// `BreakIterators.plainOpportunities`' rules: not before a space; after spaces; not beside a quotation
    /// mark; before and after an ideograph; not between letters and digits.
    private let breaksBetween: UnsafeMutablePointer<Bool> = {
        let table = UnsafeMutablePointer<Bool>.allocate(capacity: 64)
        for previous in 0..<8 {
            for current in 0..<8 {
                let current8 = UInt8(current)
                let previous8 = UInt8(previous)
                var breaks = false
                if current8 != Kind.space {
                    if previous8 == Kind.space {
                        breaks = true
                    } else if previous8 != Kind.quotation && current8 != Kind.quotation {
                        breaks = previous8 == Kind.ideograph || current8 == Kind.ideograph
                    }
                }
                table[previous << 3 | current] = breaks
            }
        }
        return table
    }()

    private func fits(_ start: Int, _ end: Int) -> Bool { prefix[end] - prefix[start] <= maxWidth + GreedyLines.slack }

    /// `end` moved back over spaces, not before `start`.
    private func trimmed(_ start: Int, _ end: Int) -> Int {
        var end = end
        while end > start && units[end - 1] == 0x20 { end -= 1 }
        return end
    }

    /// Adds a line unless the limit is reached; false (and `truncated`) when it is.
    private func emit(_ start: Int, _ end: Int) -> Bool {
        guard lineCount < limit else {
            truncated = true
            return false
        }
        if lineCount == lineCapacity {
            let grown = max(8, 2 * lineCapacity)
            let starts = UnsafeMutablePointer<Int>.allocate(capacity: grown)
            let ends = UnsafeMutablePointer<Int>.allocate(capacity: grown)
            starts.initialize(from: lineStarts, count: lineCount)
            ends.initialize(from: lineEnds, count: lineCount)
            lineStarts.deallocate()
            lineEnds.deallocate()
            (lineStarts, lineEnds, lineCapacity) = (starts, ends, grown)
        }
        lineStarts[lineCount] = start
        lineEnds[lineCount] = end
        lineCount += 1
        return true
    }

    private func width(_ start: Int, _ end: Int) -> Double { prefix[end] - prefix[start] }

    /// Line `index`'s end and width; for the last line of a cut text, as much of it as fits before the
    /// ellipsis (`ellipsisWidth` points) within the width, the ellipsis included (`TextEngine.ellipsized`).
    private func line(_ index: Int, ellipsisWidth: Double) -> (end: Int, width: Double) {
        let start = lineStarts[index]
        guard truncated && index == lineCount - 1 else { return (lineEnds[index], width(start, lineEnds[index])) }
        var end = lineEnds[index]
        while end > start && width(start, end) + ellipsisWidth > maxWidth { end -= 1 }
        end = trimmed(start, end)
        return (end, width(start, end) + ellipsisWidth)
    }

    /// The last text's measures (`TextEngine.measures`): its lines, the widest, the height at `lineHeight`.
    func measures(lineHeight: Double, ellipsisWidth: Double) -> TextMeasures {
        var widest = 0.0
        for k in 0..<lineCount { widest = max(widest, line(k, ellipsisWidth: ellipsisWidth).width) }
        return TextMeasures(
            lines: lineCount, width: widest, height: Double(lineCount) * lineHeight, truncated: truncated)
    }

    /// The last text's lines as spans of the bytes `run` was given (`TextEngine.layout`'s block), into `spans`
    /// (room for `lineCount`).
    func spans(ellipsisWidth: Double, into spans: UnsafeMutablePointer<TextBlock.Span>) {
        for k in 0..<lineCount {
            let (end, width) = line(k, ellipsisWidth: ellipsisWidth)
            spans[k] = TextBlock.Span(start: byteStarts[lineStarts[k]], end: byteStarts[end], width: width)
        }
    }
}
