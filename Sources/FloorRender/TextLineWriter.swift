import Dispatch
import FloorCore
import Synchronization

/// The text preview's lines turned into bytes. TextRenderer's drawing fills a band (`TextBand`: a grid of
/// drawn lines, or the recording of the calls that draw them (CanvasRecording), and the steps saying what to
/// write: blank lines, the grid's lines, their gutter labels) and hands it over whole; the writer draws the
/// band's recording into its grid, if it has one, then appends the band to the output, in the order bands
/// were handed over, either at once on the drawing's thread (`.inline`) or on a thread of its own
/// (`.secondThread`) while the drawing fills the next band, so that on two cores drawing a long page's
/// cells into grids and writing their lines (and clearing each band's grid, and the output's first touches)
/// overlaps the plugins' cell calls. The bytes are the same either way.
///
/// Contract, who owns what when: a band (its grid, recording, steps and labels) belongs to the drawing from `take()`
/// until `hand(_:)`, then to the writer until a later `take()` gives it back, cleared; the output and the backend
/// recordings are drawn with belong to the writer from `init` until `finish()` returns. The drawing never touches a
/// band it has handed over, the writer never one it has given back, and nothing else is shared but the two queues,
/// under one lock. No plugin code runs on the writer's thread: a band is cells, bytes and recorded calls, whose texts
/// are the recording's own copies (never a plugin's pointers, valid only during its call), drawn by host code
/// (GridBackend) that touches nothing shared: the text blocks whose lines were not known when recorded are laid out
/// with the backend's engine (`drawingRecordingsWith`'s: on a second thread TextEngine.second, whose lock the drawing's
/// thread never takes). The drawing may draw a band's recording itself before handing it over (it is its band until
/// then; `isBehind` says when the writer is busy). On a second thread `bandsInFlight` bands circulate, so the drawing
/// waits only when the writer holds all the others; inline, one, given back when handed over: so a band is handed over
/// before the next is taken. `finish()` must be called once, after the last `hand(_:)`: until then the writer's thread
/// is running (ARCHITECTURE.md, "Output contract": nothing is written out before every plugin call has returned; this
/// writes into memory only).
package final class TextLineWriter: @unchecked Sendable {
    package enum Mode: Sendable {
        /// Each band written when handed over, on the caller's thread (a screen: a few dozen lines).
        case inline
        /// On a thread of its own, a band behind the drawing (a whole page).
        case secondThread
    }

    /// Lines a band's grid holds by default (a row taller than a band gets a band, and a grid, of its own).
    /// Each band handed over is a wake-up of the other thread: on the 8 MB page, bands of 256 lines were 1,650
    /// context switches and a render of 138 +- 32 ms (hyperfine, 30 runs), bands of 1,024 lines 435 and
    /// 117 +- 15 ms, with the same peak memory (BENCHMARKS.md, issue 23).
    package static let bandLines = 1024

    /// Bands a second thread's writer circulates. A wait of the drawing for a band longer than its spin (HandOffSignal)
    /// is a sleep and a wake-up, whose cost varies with where the scheduler puts the two threads: on the 8 MB page at
    /// load 2-4 the drawing waited 38-227 times a render with two bands, 16-25 with four, and on an idle machine the
    /// same build's median render went from 110 to 100 ms (three to eight bands: about the same) (BENCHMARKS.md, issue
    /// 23: "The text preview's hand-overs"). The two more bands are about 1.5 MB of peak memory there (their grids'
    /// lines drawn).
    static let bandsInFlight = 4

    private let styled: Bool
    private let gutter: Bool
    /// The gutter of a line without a label, with its separating space (empty without a gutter).
    private let blankGutter: [UInt8]
    private let bandLines: Int
    /// Draws each band's recording into its grid before the band is written; the writer's own (see the contract).
    private let recordings: TextRenderer.GridBackend
    /// Owned by the writer (see the contract) until `finish()`. Unchecked for exclusivity: only its owner
    /// touches it, and a checked access on each append cost more than many a line's bytes.
    @exclusivity(unchecked) private var output: TextOutput
    /// Lines of frames and rules alone written so far, by shape (TextGrid.FrameShape), each where its bytes are
    /// (line break included): the next line of a shape is written from them, neither drawn into bytes again nor
    /// compared (a card's frame sides, its bottom edge, the rule under it: more than half a long page's lines).
    /// A shape takes the slot of the one before it with its hash; a page has a few. Written without a gutter only.
    @exclusivity(unchecked) private var shapes = [Shaped?](repeating: nil, count: 16)
    /// The bytes around a lone text (TextGrid.LoneTextLayout: a card's title, price or picture name beside or inside
    /// its frames), by layout, each made once: the next line of a layout is those bytes and its text's (styled, its
    /// style switched to and back: TextGrid.writesLoneText); with a gutter too (after its label). The bytes are kept in
    /// `aroundBytes`, emptied with the slots when they pass `aroundBytesKept` (a page of ever new layouts).
    @exclusivity(unchecked) private var around = [Around?](repeating: nil, count: 16)
    @exclusivity(unchecked) private var aroundBytes: [UInt8] = []
    private static let aroundBytesKept = 1 << 16

    private struct Around {
        let layout: TextGrid.LoneTextLayout
        let before: Range<Int>
        let after: Range<Int>
    }

    private struct Shaped {
        let shape: TextGrid.FrameShape
        /// Where the output holds the line's `count` bytes (set once it has it: TextOutput.endLine); a line shorter
        /// than TextOutput.shortestRepeated, which is copied rather than referred to, holds them in `short`.
        var at = 0
        let count: Int
        var short: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

        /// A line of `shape` written as `line`.
        init(_ shape: TextGrid.FrameShape, line: UnsafeRawBufferPointer) {
            self.shape = shape
            count = line.count
            if count < TextOutput.shortestRepeated {
                withUnsafeMutableBytes(of: &short) { $0.copyMemory(from: line) }
            }
        }

        /// Appends the line again.
        func write(to output: inout TextOutput) {
            guard count < TextOutput.shortestRepeated else { return output.repeatLine(from: at, count: count) }
            withUnsafeBytes(of: short) {
                output.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[..<count]))
            }
        }
    }

    private struct Queues: Sendable {
        /// Bands handed over and not yet written, in order; nil: the drawing has finished.
        var handed: [TextBand?] = []
        var free: [TextBand] = []
    }

    private let queues = Mutex(Queues())
    /// One signal a band handed over (and one for the end); one a band given back; one when all is written.
    private let handedOver = HandOffSignal()
    private let givenBack = HandOffSignal()
    private let written = DispatchSemaphore(value: 0)
    private let mode: Mode

    /// A writer appending lines of grids `columns` wide and `bandLines` tall, in `styled` SGR, after
    /// `blankGutter` (or a label) when `gutter`, to `output`, which it takes (leaving it empty) until `finish()`:
    /// moved, not copied, so that its reserved capacity is what is appended to. Each line goes through TextOutput's
    /// `endLine`, which holds it once when it repeats a recent one.
    /// `holdsFrames`: its grids' (TextGrid.holdsFrames).
    /// Bands handed over with a recording have it drawn with `recordings`, which the writer takes until
    /// `finish()`.
    init(
        _ mode: Mode, columns: Int, bandLines: Int, styled: Bool, gutter: Bool, holdsFrames: Bool = true,
        blankGutter: [UInt8],
        drawingRecordingsWith recordings: TextRenderer.GridBackend, output: inout TextOutput
    ) {
        self.mode = mode
        self.recordings = recordings
        self.bandLines = max(1, bandLines)
        self.styled = styled
        self.gutter = gutter
        self.blankGutter = blankGutter
        self.output = TextOutput()
        swap(&self.output, &output)
        let bands = mode == .inline ? 1 : Self.bandsInFlight
        queues.withLock { queues in
            for _ in 0..<bands {
                queues.free.append(TextBand(columns: columns, lines: self.bandLines, holdsFrames: holdsFrames))
            }
        }
        for _ in 0..<bands { givenBack.signal() }
        guard mode == .secondThread else { return }
        HostThread.start(name: "floorhost text writer") { [self] in
            while true {
                handedOver.wait()
                guard let band = queues.withLock({ $0.handed.removeFirst() }) else { break }
                giveBack(band)
            }
            written.signal()
        }
    }

    /// Whether the writer has no cleared band to give (`take()` would wait): on a second thread, it is still
    /// writing the band handed over before; inline, always (its one band is the drawing's).
    var isBehind: Bool { queues.withLock { $0.free.isEmpty } }

    /// A cleared band to draw into, waiting (second thread) until the writer has given one back.
    func take() -> TextBand {
        givenBack.wait()
        return queues.withLock { $0.free.removeLast() }
    }

    /// Hands `band` over to be written after the bands handed over before it; the caller lets go of it.
    func hand(_ band: consuming TextBand) {
        switch mode {
        case .inline:
            giveBack(band)
        case .secondThread:
            // Moved into the queue, so that the writer holds the band's only reference (a copy left here would
            // make the writer's first change copy the grid).
            var handed: TextBand? = consume band
            queues.withLock { $0.handed.append(handed.take()) }
            handedOver.signal()
        }
    }

    /// Draws `band`'s recording, writes it and gives it back cleared, moved into the free queue: the drawing that
    /// takes it next holds its only reference, and changes its grid in place.
    private func giveBack(_ band: consuming TextBand) {
        if !band.recording.isEmpty {
            swap(&band.grid, &recordings.grid)
            band.recording.draw(into: recordings)
            swap(&band.grid, &recordings.grid)
        }
        write(band)
        band.clear(lines: bandLines)
        var cleared: TextBand? = consume band
        queues.withLock { $0.free.append(cleared.take()!) }
        givenBack.signal()
    }

    /// Waits until every band handed over is written, ends the writer's thread, and gives the output back.
    func finish() -> TextOutput {
        if mode == .secondThread {
            queues.withLock { $0.handed.append(nil) }
            handedOver.signal()
            written.wait()
        }
        var taken = TextOutput()
        swap(&taken, &output)
        return taken
    }

    /// The bytes around line `l`'s lone text, of `layout`, made and kept in `slot`.
    private func remember(_ layout: TextGrid.LoneTextLayout, of band: borrowing TextBand, line l: Int, in slot: Int)
        -> Around
    {
        if aroundBytes.count > Self.aroundBytesKept {
            aroundBytes.removeAll(keepingCapacity: true)
            for k in around.indices { around[k] = nil }
        }
        let bytes = band.grid.bytesAround(loneTextOf: l)
        let start = aroundBytes.count
        aroundBytes.append(contentsOf: bytes.before)
        aroundBytes.append(contentsOf: bytes.after)
        let kept = Around(
            layout: layout, before: start..<(start + bytes.before.count),
            after: (start + bytes.before.count)..<aroundBytes.count)
        around[slot] = kept
        return kept
    }

    /// Appends the band's steps to the output: its lines after their gutter (no trailing space after a gutter
    /// on an empty line), each ended by a line break.
    private func write(_ band: borrowing TextBand) {
        for step in band.steps {
            switch step {
            case .blank(let count):
                let start = output.bytes.count
                if gutter {
                    for _ in 0..<count {
                        output.bytes.append(contentsOf: blankGutter.dropLast())
                        output.bytes.append(0x0A)
                    }
                } else {
                    output.bytes.append(contentsOf: repeatElement(0x0A, count: count))
                }
                output.endLine(from: start)
            case .lines(let lines, let label):
                for l in lines {
                    let start = output.bytes.count
                    if gutter {
                        if l == lines.lowerBound, let label {
                            output.bytes.append(contentsOf: band.labels[label])
                        } else {
                            output.bytes.append(contentsOf: blankGutter)
                        }
                    }
                    if let layout = band.grid.loneTextLayout(line: l), band.grid.writesLoneText(line: l, styled: styled)
                    {
                        let slot = layout.bucket & (around.count - 1)
                        let seen =
                            around[slot].flatMap { $0.layout == layout ? $0 : nil }
                            ?? remember(layout, of: band, line: l, in: slot)
                        let before = output.bytes.count
                        aroundBytes.withUnsafeBytes { kept in
                            band.grid.writeLoneText(
                                line: l, before: UnsafeRawBufferPointer(rebasing: kept[seen.before]),
                                after: UnsafeRawBufferPointer(rebasing: kept[seen.after]), styled: styled,
                                to: &output.bytes)
                        }
                        if gutter && output.bytes.count == before { output.bytes.removeLast() }
                        output.bytes.append(0x0A)
                        output.endLine(from: start)
                        continue
                    }
                    let shape = gutter ? nil : band.grid.frameShape(line: l)
                    let slot = shape.map { $0.bucket & (shapes.count - 1) } ?? 0
                    if let shape, let seen = shapes[slot], seen.shape == shape {
                        seen.write(to: &output)
                        continue
                    }
                    let before = output.bytes.count
                    band.grid.write(line: l, to: &output.bytes, styled: styled)
                    if gutter && output.bytes.count == before { output.bytes.removeLast() }
                    output.bytes.append(0x0A)
                    // A line of a shape is remembered before its bytes may go (TextOutput holds a repeat as a reference).
                    let shaped = shape.map { shape in
                        output.bytes.withUnsafeBytes {
                            Shaped(shape, line: UnsafeRawBufferPointer(rebasing: $0[start...]))
                        }
                    }
                    let at = output.endLine(from: start)
                    if var shaped {
                        shaped.at = at
                        shapes[slot] = shaped
                    }
                }
            }
        }
    }
}

/// A band of the text preview's drawing (TextLineWriter): lines drawn into `grid`, from its top down, at once or
/// by the writer from `recording`, and what to write of them, in order.
struct TextBand: @unchecked Sendable {
    // Unchecked: a band is handed between threads whole and never shared (TextLineWriter's contract).
    enum Step {
        /// Empty lines (a gutter's bar only, with a gutter).
        case blank(Int)
        /// The grid's `lines`; the first after the gutter label `labels[label]`, when there is one.
        case lines(Range<Int>, label: Range<Int>?)
    }

    var grid: TextGrid
    /// Calls to draw into `grid` before it is written (empty when it was drawn at once).
    var recording = CanvasRecording()
    /// The grid's lines taken so far: the next drawing goes below them.
    private(set) var used = 0
    private(set) var steps: [Step] = []
    /// Gutter labels as written (the label, its "│" and a space), end to end.
    var labels: [UInt8] = []

    /// `holdsFrames`: the grid's (TextGrid.holdsFrames).
    init(columns: Int, lines: Int, holdsFrames: Bool = true) {
        grid = TextGrid(columns: columns, lines: lines)
        grid.holdsFrames = holdsFrames
    }

    /// Whether nothing is to be written yet.
    var isEmpty: Bool { steps.isEmpty }

    /// The first of `count` lines taken below those taken so far in a grid `lines` tall (the band's, lent to
    /// the drawing); nil when it has no room left.
    mutating func takeLines(_ count: Int, of lines: Int) -> Int? {
        guard used + count <= lines else { return nil }
        defer { used += count }
        return used
    }

    mutating func appendBlank(_ count: Int) {
        guard count > 0 else { return }
        if case .blank(let before)? = steps.last {
            steps[steps.count - 1] = .blank(before + count)
        } else {
            steps.append(.blank(count))
        }
    }

    /// The grid's `lines` (taken), the first labelled with `label`; an unlabelled run continuing the last
    /// step's lines joins it.
    mutating func appendLines(_ lines: Range<Int>, label: Range<Int>?) {
        guard !lines.isEmpty else { return }
        if label == nil, case .lines(let before, let beforeLabel)? = steps.last, before.upperBound == lines.lowerBound {
            steps[steps.count - 1] = .lines(before.lowerBound..<lines.upperBound, label: beforeLabel)
        } else {
            steps.append(.lines(lines, label: label))
        }
    }

    /// Blank again, `lines` tall, nothing to write or draw; its storage kept.
    mutating func clear(lines: Int) {
        grid.reset(lines: lines)
        recording.removeAll()
        used = 0
        steps.removeAll(keepingCapacity: true)
        labels.removeAll(keepingCapacity: true)
    }
}
