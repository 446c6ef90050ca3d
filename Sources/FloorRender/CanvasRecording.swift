import FloorLayout
import FloorText
import Glibc
import HostContract

/// A band's canvas calls, recorded while its cells are drawn, to be drawn into its grid later (a display list,
/// as a UI toolkit records a picture on its UI thread and rasterises it on another): the text preview of a
/// whole page records each band on the drawing's thread, where the plugins' cells run, and its writer draws
/// the recording into the band's grid on its own thread (TextLineWriter) through a GridBackend, the same
/// calls in the same order as the drawing would have made them at once, so the same cells and bytes.
///
/// What is recorded is what the band's GridBackend would be called with (BandCanvas): the cells' draw calls
/// (text, text_block, image, fitted_image, box, fill) and the drawing's own (a cell's start, the clip, a
/// grid made taller, the pinned marker). A text block whose lines are known as it is recorded is recorded as
/// its block: a screen's, from the engine's cache; a whole page's title, the lines its row's height found,
/// taken from the engine on the drawing's thread, in the cells' order (TextEngine.measuredBlock:
/// MeasuredLines is taken in order). Any other (a price, which no height measured) keeps its bytes and
/// arguments and is laid out where the recording is drawn (TextEngine.layoutAfresh, touching neither the
/// engine's cache nor the lines it kept, so in any order): on the writer's thread with the writer's own engine
/// (TextEngine.second), so that it never waits for the heights the drawing's thread measures with the shared
/// one, or on the drawing's thread when it draws a recording itself; the drawing's thread so lays out 43,083
/// fewer texts on the 8 MB page (BENCHMARKS.md, issue 23, "The writer's own engine"). Queries
/// (measure_text, layout_text) are answered during the cell call as before; item frames stay with the cell
/// call (Adapter.drawCell); neither reaches a backend.
///
/// Ownership: every text's bytes are copied into `bytes` during the call that passes them (a plugin's
/// pointers are valid only during its call, docs/ABI.md, "Ownership and lifetimes" and "Canvas"; a block
/// holds its own), and nothing recorded points outside the recording, so it can cross threads with its band.
/// Cost: a text's bytes once, plus `calls`' entries (MemoryLayout<Call>.stride each, 56 bytes); a band of
/// ProductFeed cards is about 14 KB (BENCHMARKS.md). The drawing draws a recording itself once it passes
/// `flushBytes` (TextRenderer's drawing, at a cell's end), so a band's recording stays under that plus one
/// cell's calls, however much a plugin draws.
struct CanvasRecording {
    /// One call; a text's bytes are `bytes[text]`.
    enum Call {
        case startCell(firstLine: Int, column: Int)
        case clip(TextGrid.Rect)
        case unclip
        case reset(lines: Int)
        /// `string`: given as a String (escaped by the backend), else as the plugin's C string.
        case text(Range<Int>, x: Double, y: Double, maxWidth: Double, style: UInt32, string: Bool)
        /// `blocks[block]`, its lines known when the call was recorded.
        case textBlock(block: Int, x: Double, y: Double, maxWidth: Double, style: UInt32)
        /// A text block laid out when drawn (GridBackend.drawnOnce), its text `bytes[text]`.
        case textLayout(Range<Int>, x: Double, y: Double, maxWidth: Double, maxLines: UInt32, style: UInt32)
        /// Every image call (image, fitted_image) draws the same in a grid: its source's name in a frame.
        case image(Range<Int>, x: Double, y: Double, width: Double, height: Double)
        case box(x: Double, y: Double, width: Double, height: Double)
        case fill(x: Double, y: Double, width: Double, height: Double, tone: UInt32)
        case marker(Range<Int>, firstLine: Int, shown: Range<Int>)
    }

    private(set) var calls: [Call] = []
    /// The texts' bytes, end to end.
    private(set) var bytes: [UInt8] = []
    /// The text blocks whose lines were known when recorded.
    private(set) var blocks: [TextBlock] = []
    /// The bytes the blocks hold (their texts' and lines').
    private var blockBytes = 0

    /// A recording drawn by the drawing itself once it holds this many bytes (texts and calls): 1 MiB, some
    /// 80 bands of ProductFeed cards, so never on a page whose cells draw what fits on their lines.
    static let flushBytes = 1 << 20

    var isEmpty: Bool { calls.isEmpty }

    /// The bytes the recording holds: its texts', its blocks' and its calls'.
    var size: Int { bytes.count + blockBytes + calls.count * MemoryLayout<Call>.stride }

    mutating func append(_ call: Call) { calls.append(call) }

    /// Keeps `block` (laid out from `textBytes` of text), taken over: not copied, which was a retain and a
    /// release a text block recorded. Its index, for a call to name.
    mutating func keep(_ block: consuming TextBlock, textBytes: Int) -> Int {
        blockBytes += textBytes + block.lineCount * MemoryLayout<Double>.stride * 2
        blocks.append(block)
        return blocks.count - 1
    }

    /// Copies `text` into the recording; where it is, for a call to name.
    mutating func copy(_ text: UnsafeRawBufferPointer) -> Range<Int> {
        let start = bytes.count
        bytes.append(contentsOf: text)
        return start..<bytes.count
    }

    mutating func copy(_ text: String) -> Range<Int> {
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        return start..<bytes.count
    }

    /// Empty again, its storage kept.
    mutating func removeAll() {
        calls.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        blocks.removeAll(keepingCapacity: true)
        blockBytes = 0
    }

    /// Makes the calls, in order, on `canvas`: what the drawing would have made on it at once.
    func draw(into canvas: TextRenderer.GridBackend) {
        bytes.withUnsafeBytes { all in
            func text(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: all[range]) }
            for call in calls {
                switch call {
                case .startCell(let firstLine, let column):
                    canvas.startCell(firstLine: firstLine, column: column)
                case .clip(let rect):
                    canvas.clip(to: rect)
                case .unclip:
                    canvas.clip(to: nil)
                case .reset(let lines):
                    canvas.reset(lines: lines)
                case .text(let range, let x, let y, let maxWidth, let style, let string):
                    if string {
                        canvas.text(
                            String(decoding: text(range), as: UTF8.self), x: x, y: y, maxWidth: maxWidth,
                            style: style)
                    } else {
                        canvas.text(
                            utf8: text(range).assumingMemoryBound(to: UInt8.self), escaped: false, x: x, y: y,
                            maxWidth: maxWidth, style: style)
                    }
                case .textBlock(let block, let x, let y, let maxWidth, let style):
                    canvas.draw(blocks[block], x: x, y: y, maxWidth: maxWidth, style: style)
                case .textLayout(let range, let x, let y, let maxWidth, let maxLines, let style):
                    let block = canvas.drawnOnce(
                        utf8: text(range), maxWidth: maxWidth, maxLines: maxLines, style: style)
                    canvas.draw(block, x: x, y: y, maxWidth: maxWidth, style: style)
                case .image(let range, let x, let y, let width, let height):
                    canvas.image(
                        bytes: text(range).assumingMemoryBound(to: UInt8.self), x: x, y: y, width: width,
                        height: height)
                case .box(let x, let y, let width, let height):
                    canvas.box(x: x, y: y, width: width, height: height)
                case .fill(let x, let y, let width, let height, let tone):
                    canvas.fill(x: x, y: y, width: width, height: height, tone: tone)
                case .marker(let range, let firstLine, let shown):
                    canvas.marker(String(decoding: text(range), as: UTF8.self), firstLine: firstLine, shown: shown)
                }
            }
        }
    }
}

/// The canvas a band's cells are recorded through (CanvasRecording): each call appends itself, its texts
/// copied, to the recording lent to it (`exchange(with:)`); a text block as the block `backend` knows for it
/// at once (GridBackend.blockWhenRecorded), else as its bytes and arguments. Used on the drawing's thread only.
final class CanvasRecorder: BandCanvas {
    // Unchecked: one drawing uses a recorder, from one thread, one call at a time.
    @exclusivity(unchecked) var recording = CanvasRecording()
    /// The lines the band's grid will have when the recording is drawn into it.
    @exclusivity(unchecked) private(set) var lines = 0
    /// The backend the recording is for: how it lays a text block out.
    let backend: TextRenderer.GridBackend

    init(for backend: TextRenderer.GridBackend) {
        self.backend = backend
    }

    func exchange(with band: inout TextBand) {
        swap(&recording, &band.recording)
        lines = band.grid.lines
    }

    func startCell(firstLine: Int, column: Int) {
        recording.append(.startCell(firstLine: firstLine, column: column))
    }

    func clip(to rect: TextGrid.Rect?) {
        if let rect { recording.append(.clip(rect)) } else { recording.append(.unclip) }
    }

    func reset(lines: Int) {
        recording.append(.reset(lines: lines))
        self.lines = max(0, lines)
    }

    func marker(_ marker: String, firstLine: Int, shown: Range<Int>) {
        recording.append(.marker(recording.copy(marker), firstLine: firstLine, shown: shown))
    }

    func text(_ text: String, x: Double, y: Double, maxWidth: Double, style: UInt32) {
        recording.append(.text(recording.copy(text), x: x, y: y, maxWidth: maxWidth, style: style, string: true))
    }

    func text(cString: UnsafePointer<CChar>, x: Double, y: Double, maxWidth: Double, style: UInt32) {
        let text = recording.copy(UnsafeRawBufferPointer(start: cString, count: strlen(cString)))
        recording.append(.text(text, x: x, y: y, maxWidth: maxWidth, style: style, string: false))
    }

    func textBlock(_ drawing: TextBlockDrawing) {
        let block = recording.keep(drawing.block, textBytes: drawing.text.utf8.count)
        recording.append(
            .textBlock(block: block, x: drawing.x, y: drawing.y, maxWidth: drawing.maxWidth, style: drawing.style))
    }

    /// The block the backend knows now (a title's, from the lines its height found, taken here in the cells'
    /// order; it holds its own copy of the text), or the plugin's bytes copied, laid out when drawn.
    func textBlock(
        utf8: UnsafeRawBufferPointer, x: Double, y: Double, maxWidth: Double, maxLines: UInt32, style: UInt32
    ) {
        guard let known = backend.blockWhenRecorded(utf8: utf8, maxWidth: maxWidth, maxLines: maxLines, style: style)
        else {
            let text = recording.copy(utf8)
            recording.append(.textLayout(text, x: x, y: y, maxWidth: maxWidth, maxLines: maxLines, style: style))
            return
        }
        let block = recording.keep(consume known, textBytes: utf8.count)
        recording.append(.textBlock(block: block, x: x, y: y, maxWidth: maxWidth, style: style))
    }

    func image(_ source: String, x: Double, y: Double, width: Double, height: Double) {
        recording.append(.image(recording.copy(source), x: x, y: y, width: width, height: height))
    }

    func image(cString: UnsafePointer<CChar>, x: Double, y: Double, width: Double, height: Double) {
        let source = recording.copy(UnsafeRawBufferPointer(start: cString, count: strlen(cString)))
        recording.append(.image(source, x: x, y: y, width: width, height: height))
    }

    func image(_ source: String, x: Double, y: Double, width: Double, height: Double, mode: UInt32) {
        image(source, x: x, y: y, width: width, height: height)
    }

    func image(utf8: UnsafeRawBufferPointer, x: Double, y: Double, width: Double, height: Double, mode: UInt32) {
        recording.append(.image(recording.copy(utf8), x: x, y: y, width: width, height: height))
    }

    func box(x: Double, y: Double, width: Double, height: Double) {
        recording.append(.box(x: x, y: y, width: width, height: height))
    }

    func fill(x: Double, y: Double, width: Double, height: Double, tone: UInt32) {
        recording.append(.fill(x: x, y: y, width: width, height: height, tone: tone))
    }
}
