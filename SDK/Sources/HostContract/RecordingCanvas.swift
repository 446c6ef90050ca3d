import CFloorABI
import FloorText

/// A canvas backend that records what a cell draws, for the determinism and bounds checks. Doubles are
/// compared by bit pattern, so a NaN drawn twice is the same drawing.
public final class RecordingCanvas {
    public enum Operation: Equatable, CustomStringConvertible, Sendable {
        case text(String, x: Double, y: Double, maxWidth: Double, style: UInt32)
        case image(String, x: Double, y: Double, width: Double, height: Double)
        case box(x: Double, y: Double, width: Double, height: Double)
        case fill(x: Double, y: Double, width: Double, height: Double, tone: UInt32)
        /// Since ABI 1.5: text_block's arguments (the lines are `HostTextLayout.block` of them).
        case textBlock(String, x: Double, y: Double, maxWidth: Double, maxLines: UInt32, style: UInt32)

        public static func == (a: Operation, b: Operation) -> Bool {
            func same(_ x: [Double], _ y: [Double]) -> Bool { x.map(\.bitPattern) == y.map(\.bitPattern) }
            switch (a, b) {
            case (.text(let s, let x, let y, let m, let st), .text(let s2, let x2, let y2, let m2, let st2)):
                return s == s2 && st == st2 && same([x, y, m], [x2, y2, m2])
            case (.image(let s, let x, let y, let w, let h), .image(let s2, let x2, let y2, let w2, let h2)):
                return s == s2 && same([x, y, w, h], [x2, y2, w2, h2])
            case (.box(let x, let y, let w, let h), .box(let x2, let y2, let w2, let h2)):
                return same([x, y, w, h], [x2, y2, w2, h2])
            case (.fill(let x, let y, let w, let h, let t), .fill(let x2, let y2, let w2, let h2, let t2)):
                return t == t2 && same([x, y, w, h], [x2, y2, w2, h2])
            case (
                .textBlock(let s, let x, let y, let m, let l, let st),
                .textBlock(let s2, let x2, let y2, let m2, let l2, let st2)
            ):
                return s == s2 && l == l2 && st == st2 && same([x, y, m], [x2, y2, m2])
            default: return false
            }
        }

        public var description: String {
            switch self {
            case .text(let s, let x, let y, let m, _): "text(x: \(x), y: \(y), max_width: \(m), \"\(s.prefix(40))\")"
            case .image(let s, let x, let y, let w, let h):
                "image(x: \(x), y: \(y), w: \(w), h: \(h), \"\(s.prefix(40))\")"
            case .box(let x, let y, let w, let h): "box(x: \(x), y: \(y), w: \(w), h: \(h))"
            case .fill(let x, let y, let w, let h, let t): "fill(x: \(x), y: \(y), w: \(w), h: \(h), tone: \(t))"
            case .textBlock(let s, let x, let y, let m, let l, _):
                "text_block(x: \(x), y: \(y), max_width: \(m), max_lines: \(l), \"\(s.prefix(40))\")"
            }
        }

        /// Whether the operation stays inside a `width` x `height` cell. A text line starts inside the
        /// cell and is cut to `maxWidth` ending at the right edge; a frame or a rule lies within it; a text block's
        /// laid-out lines (their height and their widest line) lie within it.
        public func isInside(width: Double, height: Double) -> Bool {
            let slack = 1e-6
            func within(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Bool {
                x >= -slack && y >= -slack && w >= 0 && h >= 0 && x + w <= width + slack && y + h <= height + slack
            }
            switch self {
            case .text(_, let x, let y, let m, _): return within(x, y, m, 0) && y < height
            case .image(_, let x, let y, let w, let h): return within(x, y, w, h)
            case .box(let x, let y, let w, let h): return within(x, y, w, h)
            case .fill(let x, let y, let w, let h, _): return within(x, y, w, h)
            case .textBlock(let s, let x, let y, let m, let l, let st):
                let block = HostTextLayout.block(s, style: st, maxWidth: m, maxLines: Int(l))
                return within(x, y, m.isFinite ? m : block.width, block.height) && (block.lineCount == 0 || y < height)
            }
        }
    }

    public private(set) var operations: [Operation] = []
    /// What the cell reported through `item_frame` (ABI 1.5), in order, as the plugin gave it (not clipped):
    /// kept apart from `operations` because a frame draws nothing.
    public private(set) var itemFrames: [ItemFrame] = []

    public init() {}

    public func text(_ text: String, x: Double, y: Double, maxWidth: Double, style: UInt32) {
        operations.append(.text(text, x: x, y: y, maxWidth: maxWidth, style: style))
    }

    public func image(_ source: String, x: Double, y: Double, width: Double, height: Double) {
        operations.append(.image(source, x: x, y: y, width: width, height: height))
    }

    public func box(x: Double, y: Double, width: Double, height: Double) {
        operations.append(.box(x: x, y: y, width: width, height: height))
    }

    public func fill(x: Double, y: Double, width: Double, height: Double, tone: UInt32) {
        operations.append(.fill(x: x, y: y, width: width, height: height, tone: tone))
    }

    public func textBlock(_ drawing: TextBlockDrawing) {
        operations.append(
            .textBlock(
                drawing.text, x: drawing.x, y: drawing.y, maxWidth: drawing.maxWidth, maxLines: drawing.maxLines,
                style: drawing.style))
    }

    public func itemFrame(_ frame: ItemFrame) {
        itemFrames.append(frame)
    }

    /// Calls `cell` with a floor_canvas_t of `width` x `height` that records into a fresh recorder, and
    /// returns what was drawn.
    /// `structSize` below the full size plays an older host (tests pass the 1.3 size, which ends before
    /// measure_text), whose canvas a plugin must not read past.
    public static func record(
        width: Double, height: Double, structSize: Int = MemoryLayout<floor_canvas_t>.size,
        _ cell: (UnsafePointer<floor_canvas_t>) -> Void
    ) -> [Operation] {
        recording(width: width, height: height, structSize: structSize, cell).operations
    }

    /// As `record`, drawing horizontal page `page` (`floor_canvas_t.page`, ABI 1.5), and returns the recorder:
    /// its operations and the item frames the cell reported.
    public static func recording(
        width: Double, height: Double, page: Int = 0, structSize: Int = MemoryLayout<floor_canvas_t>.size,
        _ cell: (UnsafePointer<floor_canvas_t>) -> Void
    ) -> RecordingCanvas {
        let recorder = RecordingCanvas()
        // Zero-initialised, then filled: fields added to the struct by later ABI minors stay NULL.
        var canvas = floor_canvas_t()
        canvas.struct_size = UInt32(structSize)
        canvas.host_data = Unmanaged.passUnretained(recorder).toOpaque()
        canvas.width = width
        canvas.height = height
        canvas.text = { canvas, x, y, maxWidth, text, style in
            guard let canvas, let text else { return }
            recorderOf(canvas).text(String(cString: text), x: x, y: y, maxWidth: maxWidth, style: style)
        }
        canvas.image = { canvas, x, y, w, h, source in
            guard let canvas else { return }
            recorderOf(canvas).image(source.map { String(cString: $0) } ?? "", x: x, y: y, width: w, height: h)
        }
        canvas.box = { canvas, x, y, w, h in
            guard let canvas else { return }
            recorderOf(canvas).box(x: x, y: y, width: w, height: h)
        }
        canvas.measure_text = { _, text, style in TextMeasure.points(cString: text, style: style) }
        canvas.fill = { canvas, x, y, w, h, tone in
            guard let canvas else { return }
            recorderOf(canvas).fill(x: x, y: y, width: w, height: h, tone: tone)
        }
        canvas.layout_text = { _, text, length, style, maxWidth, maxLines, out in
            HostTextLayout.write(
                HostTextLayout.block(utf8: text, length: length, style: style, maxWidth: maxWidth, maxLines: maxLines),
                to: out)
        }
        canvas.text_block = { canvas, x, y, maxWidth, maxLines, text, length, style in
            guard let canvas else { return }
            recorderOf(canvas).textBlock(
                TextBlockDrawing(
                    text: HostTextLayout.string(utf8: text, length: length), x: x, y: y, maxWidth: maxWidth,
                    maxLines: maxLines, style: style))
        }
        canvas.item_frame = { canvas, item, x, y, w, h in
            guard let canvas else { return }
            recorderOf(canvas).itemFrame(
                ItemFrame(item: Int(clamping: item), x: x, y: y, width: w, height: h))
        }
        canvas.page = UInt64(max(0, page))
        withUnsafePointer(to: &canvas) { cell($0) }
        return recorder
    }
}

private func recorderOf(_ canvas: UnsafePointer<floor_canvas_t>) -> RecordingCanvas {
    Unmanaged<RecordingCanvas>.fromOpaque(canvas.pointee.host_data!).takeUnretainedValue()
}
