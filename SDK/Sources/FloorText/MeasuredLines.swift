import Glibc

/// The lines the plain path found for texts the engine measured (`TextEngine.measures`), kept in the order
/// they were measured so that laying the same text out again (`TextEngine.layout`) takes them instead of
/// finding them a second time. A whole page's text preview measures every row's title for the heights, then
/// draws the rows in order, laying each title out again: 141 M instructions of the drawing thread on the
/// 8 MB page (BENCHMARKS.md, issue 23, "Titles drawn from the lines their heights found").
///
/// Exact: a text is taken only when its bytes and its arguments (style, width, line limit) equal those of a
/// kept one, and a kept text's spans are the ones laying it out gives (`PlainLines.spans` of the same run).
/// A text laid out that matches none of the next `lookahead` kept (a price, which the heights did not
/// measure) is laid out afresh; kept texts a match passes over (a row drawn without its title) are dropped.
/// Memory: a text's bytes and 32 bytes of arguments and about 1.5 spans; what has been taken is given back
/// as the drawing goes. Used under the engine's lock.
struct MeasuredLines {
    private struct Entry {
        let textStart: Int32
        let textCount: Int32
        let style: UInt32
        /// Line limit, Int32.max for none or more.
        let limit: Int32
        let maxWidth: UInt64
        let spansStart: Int32
        /// Line count, negative when the last line was cut (truncated).
        let lines: Int32
    }

    private var texts: [UInt8] = []
    private var spans: [TextBlock.Span] = []
    private var entries: [Entry] = []
    /// The first entry not taken yet.
    private var head = 0
    static let lookahead = 4

    var isEmpty: Bool { head == entries.count }

    /// Keeps `bytes`' lines (`lineCount` of them, written by `fill` in order), laid out with these
    /// arguments. A text that does not fit the 32-bit offsets is not kept.
    mutating func keep(
        _ bytes: UnsafeRawBufferPointer, style: UInt32, maxWidth: UInt64, limit: Int, lineCount: Int, truncated: Bool,
        spans fill: (UnsafeMutablePointer<TextBlock.Span>) -> Void
    ) {
        guard texts.count + bytes.count < Int(Int32.max), spans.count + lineCount < Int(Int32.max) else { return }
        let spansStart = spans.count
        spans.append(contentsOf: repeatElement(TextBlock.Span(start: 0, end: 0, width: 0), count: lineCount))
        spans.withUnsafeMutableBufferPointer { fill($0.baseAddress! + spansStart) }
        entries.append(
            Entry(
                textStart: Int32(texts.count), textCount: Int32(bytes.count), style: style,
                limit: Int32(clamping: limit), maxWidth: maxWidth, spansStart: Int32(spansStart),
                lines: Int32(lineCount) * (truncated ? -1 : 1)))
        texts.append(contentsOf: bytes)
    }

    /// The block laying `bytes` out with these arguments gives, made from kept lines when one of the next
    /// `lookahead` kept texts is the same; nil otherwise (nothing taken).
    mutating func take(
        _ bytes: UnsafeRawBufferPointer, style: UInt32, maxWidth: UInt64, limit: Int, lineHeight: Double
    ) -> TextBlock? {
        let last = min(entries.count, head + Self.lookahead)
        var k = head
        while k < last {
            let entry = entries[k]
            if Int(entry.textCount) == bytes.count, entry.style == style, entry.maxWidth == maxWidth,
                entry.limit == Int32(clamping: limit), equalText(entry, bytes)
            {
                head = k + 1
                let block = TextBlock(
                    utf8: bytes, lineCount: Int(entry.lines.magnitude), lineHeight: lineHeight,
                    truncated: entry.lines < 0, plain: true
                ) { out in
                    spans.withUnsafeBufferPointer { kept in
                        for line in 0..<Int(entry.lines.magnitude) { out[line] = kept[Int(entry.spansStart) + line] }
                    }
                }
                giveBackTaken()
                return block
            }
            k += 1
        }
        return nil
    }

    /// Forgets every kept text.
    mutating func clear() {
        texts = []
        spans = []
        entries = []
        head = 0
    }

    private func equalText(_ entry: Entry, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        return texts.withUnsafeBufferPointer { kept in
            memcmp(kept.baseAddress! + Int(entry.textStart), base, bytes.count) == 0
        }
    }

    /// Once half the entries (and at least 4,096) have been taken, moves the rest to the front: what the
    /// drawing has passed stops counting in memory, at a copy of what is left.
    private mutating func giveBackTaken() {
        if head == entries.count {
            clear()
            return
        }
        guard head >= 4096, head * 2 >= entries.count else { return }
        let first = entries[head]
        let textShift = Int(first.textStart)
        let spanShift = Int(first.spansStart)
        texts.removeFirst(textShift)
        spans.removeFirst(spanShift)
        entries.removeFirst(head)
        head = 0
        for k in entries.indices {
            let e = entries[k]
            entries[k] = Entry(
                textStart: e.textStart - Int32(textShift), textCount: e.textCount, style: e.style, limit: e.limit,
                maxWidth: e.maxWidth, spansStart: e.spansStart - Int32(spanShift), lines: e.lines)
        }
    }
}
