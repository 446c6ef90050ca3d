import CFloorABI
import HostContract

/// An output backend's drawing surface for one cell. Coordinates are points from the cell's top-left.
/// Each output (text, JSON, HTML) implements this once; plugins never know which one they draw into.
package protocol CanvasBackend: AnyObject {
    func text(_ text: String, x: Double, y: Double, maxWidth: Double, style: UInt32)
    func image(_ source: String, x: Double, y: Double, width: Double, height: Double)
    func box(x: Double, y: Double, width: Double, height: Double)
    /// Since ABI 1.4: a filled rectangle in a FLOOR_TONE_* tone (unknown tones are FLOOR_TONE_SUBTLE).
    func fill(x: Double, y: Double, width: Double, height: Double, tone: UInt32)
    /// The plugin's own NUL-terminated UTF-8, valid only during the call: a backend that can draw bytes
    /// skips making a String per call. By default, `text(_:...)` with the bytes as a String.
    func text(cString: UnsafePointer<CChar>, x: Double, y: Double, maxWidth: Double, style: UInt32)
    func image(cString: UnsafePointer<CChar>, x: Double, y: Double, width: Double, height: Double)
}

extension CanvasBackend {
    package func text(cString: UnsafePointer<CChar>, x: Double, y: Double, maxWidth: Double, style: UInt32) {
        text(String(cString: cString), x: x, y: y, maxWidth: maxWidth, style: style)
    }

    package func image(cString: UnsafePointer<CChar>, x: Double, y: Double, width: Double, height: Double) {
        image(String(cString: cString), x: x, y: y, width: width, height: height)
    }
}

/// What a canvas's host_data points to during one cell call: the backend, already as an existential, so
/// that each draw call is a witness-table call rather than a dynamic cast, and the item frames the cell
/// reports (docs/ABI.md, "Item frames"), clipped to the cell, the last report of an item winning.
private final class CanvasTarget {
    let backend: any CanvasBackend
    let width: Double
    let height: Double
    var frames: [Int: ItemFrame] = [:]
    init(_ backend: any CanvasBackend, width: Double, height: Double) {
        self.backend = backend
        self.width = width
        self.height = height
    }

    func report(_ item: UInt64, _ x: Double, _ y: Double, _ w: Double, _ h: Double) {
        // No row has more items than FLOOR_TAPPABLE_MAX; a frame for one past it names nothing.
        guard item < UInt64(FLOOR_TAPPABLE_MAX) else { return }
        frames[Int(item)] = ItemFrame(item: Int(item), x: x, y: y, width: w, height: h).clipped(
            toWidth: width, height: height)
    }
}

extension Adapter {
    /// Draws row `r`'s cell into `backend` through a floor_canvas_t of the row's size, and keeps the item
    /// frames it reported as the row's (ItemFrames.swift).
    package func drawCell(row r: Int, into backend: some CanvasBackend) {
        let target = CanvasTarget(backend, width: width, height: rows[r].height)
        var canvas = floor_canvas_t(
            struct_size: UInt32(MemoryLayout<floor_canvas_t>.size),
            host_data: Unmanaged.passUnretained(target).toOpaque(),
            width: width, height: rows[r].height,
            text: { canvas, x, y, maxWidth, text, style in
                guard let canvas, let text else { return }
                backendOf(canvas).text(cString: text, x: x, y: y, maxWidth: maxWidth, style: style)
            },
            image: { canvas, x, y, w, h, source in
                guard let canvas else { return }
                if let source {
                    backendOf(canvas).image(cString: source, x: x, y: y, width: w, height: h)
                } else {
                    backendOf(canvas).image("", x: x, y: y, width: w, height: h)
                }
            },
            box: { canvas, x, y, w, h in
                guard let canvas else { return }
                backendOf(canvas).box(x: x, y: y, width: w, height: h)
            },
            // The same width in every backend (TextMeasure), so the backend is not asked.
            measure_text: { _, text, style in TextMeasure.points(cString: text, style: style) },
            fill: { canvas, x, y, w, h, tone in
                guard let canvas else { return }
                backendOf(canvas).fill(x: x, y: y, width: w, height: h, tone: tone)
            },
            // ABI 1.5's parts (docs/ABI-1.5.md) are filled as each lands; until then a plugin cannot use them.
            layout_text: nil, text_block: nil,
            item_frame: { canvas, item, x, y, w, h in
                guard let canvas else { return }
                targetOf(canvas).report(item, x, y, w, h)
            },
            page: UInt64(page(ofRow: r)), fitted_image: nil)
        withExtendedLifetime(target) {
            withUnsafePointer(to: &canvas) { drawCell(row: r, into: $0) }
        }
        keepFrames(target.frames, ofRow: r)
    }
}

private func targetOf(_ canvas: UnsafePointer<floor_canvas_t>) -> CanvasTarget {
    Unmanaged<CanvasTarget>.fromOpaque(canvas.pointee.host_data!).takeUnretainedValue()
}

private func backendOf(_ canvas: UnsafePointer<floor_canvas_t>) -> any CanvasBackend {
    targetOf(canvas).backend
}

/// The recording canvas (HostContract) is a backend like the others: `check` draws every row into one.
extension RecordingCanvas: CanvasBackend {}
