import CHarfBuzz
import Synchronization
import UTF8Validation

/// The text engine: real type measured with the pinned font set (docs/ABI.md, "Text layout"). One
/// implementation for the host (floor_host_t.layout_text, the canvas's layout_text and text_block) and the
/// test kit, so a kit test's heights are the host's. Plugins never link it: they call the host.
///
/// Shaping and advances are HarfBuzz's on the font files (`Shaper`, `FontFace`); lines break where ICU's
/// line break iterator allows (`BreakIterators`), filled greedily up to the width; a line limit cuts the
/// text and ends its last line in an ellipsis. Same arguments, same answer, in every call and process with
/// the same font set. A text of plain characters (printable ASCII, ¢ £ ¥, CJK unified ideographs: nearly
/// every title and price) is laid out by `PlainLines` straight from its UTF-8, to the same answer, bit for
/// bit; any other by the general path below.
///
/// Threading: any thread; calls are serialised by one lock (the HarfBuzz buffer, the ICU iterators and the
/// cache are shared). Cost: proportional to the text's bytes (at most `TextLimits.maxBytes` are read),
/// never to the width or the line limit.
public final class TextEngine: @unchecked Sendable {
    /// The process's engine; opens the font files on first use.
    public static let shared = TextEngine(
        keepsBlocks: { TextEngine.keepsBlocks.load(ordering: .relaxed) },
        reusesMeasures: { MeasureReuse(rawValue: TextEngine.measureReuse.load(ordering: .relaxed)) ?? .off })

    /// A second engine, for the one thread that lays texts out while another uses `shared`: the text preview's
    /// writer, which lays out the prices its recordings hold while the drawing's thread measures the next rows'
    /// heights and takes the titles' lines from `shared` (BENCHMARKS.md, issue 23, "The writer's own engine").
    /// The same font set, so the same answers; its own lock, cache and scratch, so neither thread waits for the
    /// other. It opens the font files again at its first use; it keeps no blocks.
    public static let second = TextEngine(keepsBlocks: { false })

    /// nil when every file of the font set opened; else the files that did not, for the json output's
    /// `stats` and a warning. Without a face the text is measured in the faces that opened.
    public let problem: String?
    private let regular: Shaper.Faces
    private let bold: Shaper.Faces
    private let lock = EngineLock()
    private let shaper = Shaper()
    private let breaks = BreakIterators()
    // Unchecked for exclusivity: only used under `lock`, so no access overlaps another, and a checked
    // access cost more than a cache hit's compare.
    @exclusivity(unchecked) private var cache = TextBlockCache(capacity: 2048)
    @exclusivity(unchecked) private var ellipsis: [TypeStyle.Weight: Double] = [:]
    @exclusivity(unchecked) private var counters = Counters()
    @exclusivity(unchecked) private var scratch = LayoutScratch()
    @exclusivity(unchecked) private var measured = MeasuredLines()
    /// The path of a text of plain characters (`PlainLines`), and whether it is taken (PlainLinesTests turns
    /// it off to compare the two).
    private let plain = PlainLines()
    private let takesPlainPath: Bool

    /// What the engine has done since the process started (benchmarks and tests read it).
    public struct Counters: Sendable, Equatable {
        /// Calls answered from the cache.
        public var cached = 0
        /// Texts whose lines a measure kept, and layouts made from such lines (`reuseMeasures`).
        public var kept = 0
        public var reused = 0
        /// Calls laid out afresh, the UTF-16 units they shaped and the glyphs HarfBuzz gave for them.
        public var laidOut = 0
        /// Of those, the texts laid out on the plain path (`PlainLines`).
        public var plain = 0
        public var units = 0
        public var glyphs = 0
    }

    /// `keepsBlocks`: asked at each layout laid out afresh, whether the cache keeps it (the shared engine's:
    /// `keepBlocks`).
    /// `reusesMeasures`: asked at each call, whether measures are kept or reused (the shared engine's:
    /// `reuseMeasures`).
    init(
        keepsBlocks: @escaping @Sendable () -> Bool = { true },
        reusesMeasures: @escaping @Sendable () -> MeasureReuse = { .off }, plainPath: Bool = true
    ) {
        keepsBlocksNow = keepsBlocks
        reusesMeasuresNow = reusesMeasures
        takesPlainPath = plainPath
        var faces: [FontSet.File.Role: FontFace] = [:]
        var missing: [String] = []
        for file in FontSet.files {
            if let face = FontFace(file) {
                faces[file.role] = face
            } else {
                missing.append(file.path)
            }
        }
        problem =
            missing.isEmpty
            ? nil : "font files missing or unreadable: \(missing.joined(separator: ", ")) (run Scripts/setup)"
        regular = Shaper.Faces(sans: faces[.sans], cjk: faces[.cjk], emoji: faces[.emoji])
        bold = Shaper.Faces(sans: faces[.sansBold], cjk: faces[.cjkBold], emoji: faces[.emoji])
    }

    /// Whether the shared engine keeps the blocks it lays out afresh in its cache (true, the default, for a
    /// process that lays a text out again: a screen drawn again as it scrolls). A process that renders a page
    /// once lays each text it draws out once, so it keeps none but the last (`layout`'s `keep`): the cache's
    /// 4,096 blocks were 0.9 MiB of the json render's peak on the 8 MB page (BENCHMARKS.md, issue 23). A
    /// flag of the type's, so that setting it does not start the shared engine (its fonts and ICU) in a
    /// process that lays no text out. Heights (`measures`) never make a block, whatever this says.
    public static func keepBlocks(_ keep: Bool) {
        keepsBlocks.store(keep, ordering: .relaxed)
    }

    private static let keepsBlocks = Atomic<Bool>(true)
    /// Asked at each layout laid out afresh: whether to keep it (`keepBlocks`, for the shared engine).
    private let keepsBlocksNow: @Sendable () -> Bool

    /// Whether the shared engine keeps the lines its measures find, and lays a text out again from them.
    public enum MeasureReuse: Int, Sendable {
        /// Neither (the default); what was kept is forgotten at the next call.
        case off
        /// Each text `measures` lays out on the plain path is kept (`MeasuredLines`), in order.
        case keeping
        /// `layout` takes a text's lines from what was kept when the same text comes (in about the same
        /// order); nothing more is kept.
        case reusing
    }

    /// For a process that measures a whole page's texts and then draws all of them in the same order (the
    /// whole-page text preview): `.keeping` while the heights are measured, `.reusing` while the rows are
    /// drawn (a page measured floor by floor as it is drawn goes back and forth), `.off` after. Answers are
    /// the same either way (`MeasuredLines`). A flag of the type's, as `keepBlocks`.
    public static func reuseMeasures(_ reuse: MeasureReuse) {
        measureReuse.store(reuse.rawValue, ordering: .relaxed)
    }

    /// What `reuseMeasures` last set.
    public static var measuresReused: MeasureReuse {
        MeasureReuse(rawValue: measureReuse.load(ordering: .relaxed)) ?? .off
    }

    private static let measureReuse = Atomic<Int>(MeasureReuse.off.rawValue)
    /// Asked at each measure and layout (`reuseMeasures`, for the shared engine).
    private let reusesMeasuresNow: @Sendable () -> MeasureReuse

    public var counts: Counters {
        lock.withLock {
            var counts = counters
            counts.glyphs = shaper.glyphs
            return counts
        }
    }

    /// Lays out `utf8` (any bytes: invalid UTF-8 is measured as U+FFFD, past `TextLimits.maxBytes` is left
    /// out) in `style` at `maxWidth` points (NaN and negative: 0), at most `maxLines` lines (0 or less: no
    /// limit). A block laid out afresh is kept in the cache (or, when the engine keeps no blocks, only until
    /// the next one: `keepBlocks`).
    public func layout(utf8: UnsafeRawBufferPointer, style: TypeStyle, maxWidth: Double, maxLines: Int) -> TextBlock {
        let (bytes, width, limit) = Self.bounded(utf8, maxWidth: maxWidth, maxLines: maxLines)
        let arguments = TextBlockCache.Arguments(
            text: bytes, style: Self.key(style), maxWidth: width.bitPattern, maxLines: limit)
        return lock.withLock {
            guard bytes.count <= TextBlockCache.maxTextBytes else {
                return compute(bytes, style: style, maxWidth: width, limit: limit)
            }
            if let hit = cache.block(for: arguments) {
                counters.cached += 1
                return hit
            }
            let block =
                takeMeasured(bytes, style: style, maxWidth: width, limit: limit)
                ?? compute(bytes, style: style, maxWidth: width, limit: limit)
            cache.insert(block, for: arguments, keep: keepsBlocksNow())
            return block
        }
    }

    /// The block `layout` gives for these arguments, made from the lines the heights kept (`reuseMeasures`),
    /// when `utf8` is one of the next texts kept (MeasuredLines: taken in the order they were measured); nil
    /// otherwise, and nothing laid out. The cache is neither looked into nor filled: for a text drawn once (a
    /// whole page's text preview), which `layoutAfresh` lays out when this gives nil.
    public func measuredBlock(utf8: UnsafeRawBufferPointer, style: TypeStyle, maxWidth: Double, maxLines: Int)
        -> TextBlock?
    {
        let (bytes, width, limit) = Self.bounded(utf8, maxWidth: maxWidth, maxLines: maxLines)
        return lock.withLock { takeMeasured(bytes, style: style, maxWidth: width, limit: limit) }
    }

    /// The block made from the lines the heights kept for these (bounded) arguments, when the text is one of
    /// the next ones kept (`reuseMeasures`, MeasuredLines); nil otherwise. `layout` and `measuredBlock` take
    /// through it. Under the lock.
    private func takeMeasured(_ bytes: UnsafeRawBufferPointer, style: TypeStyle, maxWidth: Double, limit: Int)
        -> TextBlock?
    {
        guard !measured.isEmpty && currentReuse() != .off else { return nil }
        guard
            let block = measured.take(
                bytes, style: Self.key(style), maxWidth: maxWidth.bitPattern, limit: limit,
                lineHeight: style.lineHeight)
        else { return nil }
        counters.reused += 1
        return block
    }

    /// `layout`'s block, laid out afresh: neither the cache nor the measures kept are looked into, nor is
    /// anything kept. For a text drawn once, on any thread: what it does not touch (the cache, MeasuredLines'
    /// order) is what a second thread's draws would disturb; the engine's lock is still taken.
    public func layoutAfresh(utf8: UnsafeRawBufferPointer, style: TypeStyle, maxWidth: Double, maxLines: Int)
        -> TextBlock
    {
        let (bytes, width, limit) = Self.bounded(utf8, maxWidth: maxWidth, maxLines: maxLines)
        return lock.withLock { compute(bytes, style: style, maxWidth: width, limit: limit) }
    }

    public func layout(_ text: String, style: TypeStyle, maxWidth: Double, maxLines: Int = 0) -> TextBlock {
        var text = text
        return text.withUTF8 {
            layout(utf8: UnsafeRawBufferPointer($0), style: style, maxWidth: maxWidth, maxLines: maxLines)
        }
    }

    /// The width of the text on one line (its widest line when it holds line breaks), in points: 1.4's
    /// measure_text with a 1.5 style.
    public func lineWidth(utf8: UnsafeRawBufferPointer, style: TypeStyle) -> Double {
        layout(utf8: utf8, style: style, maxWidth: .infinity, maxLines: 0).width
    }

    /// What `layout(utf8:style:maxWidth:maxLines:)`'s block measures, without the block: a height
    /// calculator's answer (floor_host_t.layout_text), which is these numbers alone. The text is broken into
    /// lines and measured (a text of plain characters on the plain path, `PlainLines`), and neither its bytes
    /// nor its lines are copied into a block, nor the cache looked into or filled: a cell drawn later lays its
    /// texts out then (for a plain text, a block made straight from PlainLines' lines), which cost less than
    /// keeping every measured text's block for it (the text preview of the 8 MB page, BENCHMARKS.md, issue 23).
    public func measures(utf8: UnsafeRawBufferPointer, style: TypeStyle, maxWidth: Double, maxLines: Int)
        -> TextMeasures
    {
        let (bytes, width, limit) = Self.bounded(utf8, maxWidth: maxWidth, maxLines: maxLines)
        return lock.withLock {
            let reuse = currentReuse()
            if layOutPlain(bytes, style: style, maxWidth: width, limit: limit) {
                guard plain.count > 0 else { return TextMeasures.empty }
                let ellipsisWidth = plainEllipsis(style)
                // Only what `layout` may take: a text the block cache would keep (at most 4 KiB), so what is
                // kept stays in proportion to the page's own texts.
                if reuse == .keeping && bytes.count <= TextBlockCache.maxTextBytes {
                    measured.keep(
                        bytes, style: Self.key(style), maxWidth: width.bitPattern, limit: limit,
                        lineCount: plain.lineCount, truncated: plain.truncated
                    ) { plain.spans(ellipsisWidth: ellipsisWidth, into: $0) }
                    counters.kept += 1
                }
                return plain.measures(lineHeight: style.lineHeight, ellipsisWidth: ellipsisWidth)
            }
            return breakLines(bytes, style: style, maxWidth: width, limit: limit, empty: TextMeasures.empty) {
                breaker, faces, _ in
                // The widest line, as the block's: a cut text's last line with its ellipsis.
                let cut = breaker.truncated ? breaker.lines.count - 1 : breaker.lines.count
                var widest = 0.0
                for line in breaker.lines[..<cut] { widest = max(widest, breaker.width(line)) }
                if cut < breaker.lines.count {
                    widest = max(
                        widest, ellipsized(breaker.lines[cut], breaker: breaker, style: style, faces: faces).width)
                }
                let count = breaker.lines.count
                return TextMeasures(
                    lines: count, width: widest, height: Double(count) * style.lineHeight,
                    truncated: breaker.truncated)
            }
        }
    }

    /// `reusesMeasuresNow`'s answer; what was kept is forgotten once it is `.off`. Under the lock.
    @inline(__always)
    private func currentReuse() -> MeasureReuse {
        let reuse = reusesMeasuresNow()
        if reuse == .off && !measured.isEmpty { measured.clear() }
        return reuse
    }

    /// A style as the caches tell styles apart: its number and its weight.
    private static func key(_ style: TypeStyle) -> UInt32 { style.number | UInt32(style.weight.rawValue) << 16 }

    /// A layout's arguments as laid out: the bytes up to `TextLimits.maxBytes`, the width as TextLimits takes
    /// it, and no line limit as Int.max.
    private static func bounded(_ utf8: UnsafeRawBufferPointer, maxWidth: Double, maxLines: Int)
        -> (bytes: UnsafeRawBufferPointer, width: Double, limit: Int)
    {
        // Not `utf8.prefix(_:)`: a generic call a text (2 M instructions of the text preview of the 8 MB page).
        (
            UnsafeRawBufferPointer(start: utf8.baseAddress, count: min(utf8.count, TextLimits.maxBytes)),
            TextLimits.width(maxWidth), maxLines > 0 ? maxLines : Int.max
        )
    }

    private func compute(_ bytes: UnsafeRawBufferPointer, style: TypeStyle, maxWidth: Double, limit: Int) -> TextBlock {
        if layOutPlain(bytes, style: style, maxWidth: maxWidth, limit: limit) {
            guard plain.count > 0 else { return .empty(lineHeight: style.lineHeight) }
            // Straight from PlainLines' lines: one allocation for the text and its spans.
            let ellipsisWidth = plainEllipsis(style)
            return TextBlock(
                utf8: bytes, lineCount: plain.lineCount, lineHeight: style.lineHeight, truncated: plain.truncated,
                plain: true
            ) { plain.spans(ellipsisWidth: ellipsisWidth, into: $0) }
        }
        return breakLines(
            bytes, style: style, maxWidth: maxWidth, limit: limit, empty: .empty(lineHeight: style.lineHeight)
        ) {
            breaker, faces, utf8 in
            // One allocation of the lines' count (a `map` over them allocated twice).
            var spans: [TextBlock.Span] = []
            spans.reserveCapacity(breaker.lines.count)
            for line in breaker.lines { spans.append(scratch.span(line.start, line.end, width: breaker.width(line))) }
            if breaker.truncated, let last = breaker.lines.last {
                spans[spans.count - 1] = ellipsized(last, breaker: breaker, style: style, faces: faces)
            }
            return TextBlock(
                utf8: UnsafeRawBufferPointer(utf8), spans: spans, lineHeight: style.lineHeight,
                truncated: breaker.truncated)
        }
    }

    /// Lays `bytes` out on the plain path (`PlainLines`, whose results `plain` then holds), counted as the
    /// general path counts; false when it does not take the text.
    private func layOutPlain(_ bytes: UnsafeRawBufferPointer, style: TypeStyle, maxWidth: Double, limit: Int) -> Bool {
        guard takesPlainPath else { return false }
        // The faces passed as the properties they are: a `? bold : regular` was a retain and a release a text.
        let laidOut =
            style.weight.usesBoldFace
            ? plain.run(
                bytes, faces: bold, shaper: shaper, pointSize: style.pointSize, maxWidth: maxWidth, limit: limit)
            : plain.run(
                bytes, faces: regular, shaper: shaper, pointSize: style.pointSize, maxWidth: maxWidth, limit: limit)
        guard laidOut else { return false }
        counters.laidOut += 1
        counters.plain += 1
        counters.units += plain.count
        return true
    }

    /// The ellipsis's width for the plain path's last text (0 when no line limit cut it).
    private func plainEllipsis(_ style: TypeStyle) -> Double {
        plain.truncated ? ellipsisAdvance(style, faces: style.weight.usesBoldFace ? bold : regular) : 0
    }

    /// Breaks `bytes` into lines (GreedyLines, over the scratch's advances) and hands the breaker to `finish`,
    /// or returns `empty` for a text of no characters. Valid UTF-8 from here on, so lines can be cut from
    /// its bytes: the caller's own when they are (no copy), else a copy with each invalid sequence as U+FFFD.
    private func breakLines<Result>(
        _ bytes: UnsafeRawBufferPointer, style: TypeStyle, maxWidth: Double, limit: Int, empty: Result,
        _ finish: (GreedyLines, Shaper.Faces, UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        counters.laidOut += 1
        if ValidUTF8.check(bytes) {
            return breakLines(
                valid: bytes.assumingMemoryBound(to: UInt8.self), style: style, maxWidth: maxWidth, limit: limit,
                empty: empty, finish)
        }
        var string = String(decoding: bytes, as: UTF8.self)
        return string.withUTF8 {
            breakLines(valid: $0, style: style, maxWidth: maxWidth, limit: limit, empty: empty, finish)
        }
    }

    private func breakLines<Result>(
        valid utf8: UnsafeBufferPointer<UInt8>, style: TypeStyle, maxWidth: Double, limit: Int, empty: Result,
        _ finish: (GreedyLines, Shaper.Faces, UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        let n = scratch.transcode(utf8)
        counters.units += n
        guard n > 0 else { return empty }
        let faces = style.weight.usesBoldFace ? bold : regular
        let units = scratch.units  // a reference, not a copy: no access to `scratch` stays open
        return units.withUnsafeBufferPointer { all in
            let text = UnsafeBufferPointer(rebasing: all[0..<n])
            shaper.advances(text, faces: faces, pointSize: style.pointSize, into: &scratch.prefix)
            // The lines' storage moves into the breaker and back (taken out of `scratch`, so it stays unique).
            var lines: [GreedyLines.Range] = []
            swap(&lines, &scratch.lines)
            var breaker = GreedyLines(
                text: text, prefix: scratch.prefix, maxWidth: maxWidth, limit: limit, breaks: breaks, reusing: lines)
            breaker.run()
            let result = finish(breaker, faces, utf8)
            scratch.lines = breaker.lines
            return result
        }
    }

    /// The last kept line of a cut text: as much of it as fits before "…" within the width (at least
    /// nothing but the ellipsis), the ellipsis's width included (the block adds the "…").
    private func ellipsized(
        _ line: GreedyLines.Range, breaker: GreedyLines, style: TypeStyle, faces: Shaper.Faces
    ) -> TextBlock.Span {
        let ellipsisWidth = ellipsisAdvance(style, faces: faces)
        var boundaries = [line.start]
        while let last = boundaries.last, last < line.end {
            boundaries.append(min(line.end, breaks.graphemeEnd(after: last)))
        }
        var end = line.end
        while end > line.start && breaker.width(.init(start: line.start, end: end)) + ellipsisWidth > breaker.maxWidth {
            boundaries.removeLast()
            end = boundaries.last ?? line.start
        }
        end = breaker.trimmed(start: line.start, end: end)
        let kept = GreedyLines.Range(start: line.start, end: end)
        return scratch.span(kept.start, kept.end, width: breaker.width(kept) + ellipsisWidth)
    }

    private func ellipsisAdvance(_ style: TypeStyle, faces: Shaper.Faces) -> Double {
        let perPoint: Double
        if let known = ellipsis[style.weight] {
            perPoint = known
        } else {
            let units: [UInt16] = [0x2026]
            var prefix: [Double] = []
            units.withUnsafeBufferPointer { shaper.advances($0, faces: faces, pointSize: 1, into: &prefix) }
            perPoint = prefix[1]
            ellipsis[style.weight] = perPoint
        }
        return perPoint * style.pointSize
    }
}
