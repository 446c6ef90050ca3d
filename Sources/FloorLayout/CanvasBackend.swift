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
    /// Since ABI 1.5: a block of text as `HostTextLayout` laid it out, line i's top at `drawing.lineY(i)`
    /// (docs/ABI.md, "Text layout"). A backend draws the lines it is given and breaks none itself.
    func textBlock(_ drawing: TextBlockDrawing)
    /// The text_block call as the plugin made it, its text the plugin's bytes (as `HostTextLayout.bytes` reads
    /// them), valid only during the call. By default, `textBlock(_:)` with a `TextBlockDrawing` (the text as a
    /// String); a backend that needs only the laid-out lines lays them out from the bytes and makes no String.
    func textBlock(
        utf8: UnsafeRawBufferPointer, x: Double, y: Double, maxWidth: Double, maxLines: UInt32, style: UInt32)
    /// The plugin's own NUL-terminated UTF-8, valid only during the call: a backend that can draw bytes
    /// skips making a String per call. By default, `text(_:...)` with the bytes as a String.
    func text(cString: UnsafePointer<CChar>, x: Double, y: Double, maxWidth: Double, style: UInt32)
    func image(cString: UnsafePointer<CChar>, x: Double, y: Double, width: Double, height: Double)
    /// Since ABI 1.5 (`fitted_image`): an image in a FLOOR_IMAGE_* mode (unknown modes are FLOOR_IMAGE_FILL,
    /// 1.4's `image`). By default, `image(_:...)`: a backend that draws no picture has nothing to fit.
    func image(_ source: String, x: Double, y: Double, width: Double, height: Double, mode: UInt32)
    /// `fitted_image` with the plugin's bytes, valid only during the call. By default, `image(_:...mode:)` with
    /// the bytes as a String (invalid UTF-8 as U+FFFD); a backend that draws bytes makes no String.
    func image(utf8: UnsafeRawBufferPointer, x: Double, y: Double, width: Double, height: Double, mode: UInt32)
}

extension CanvasBackend {
    package func text(cString: UnsafePointer<CChar>, x: Double, y: Double, maxWidth: Double, style: UInt32) {
        text(String(cString: cString), x: x, y: y, maxWidth: maxWidth, style: style)
    }

    package func image(cString: UnsafePointer<CChar>, x: Double, y: Double, width: Double, height: Double) {
        image(String(cString: cString), x: x, y: y, width: width, height: height)
    }

    package func image(
        utf8: UnsafeRawBufferPointer, x: Double, y: Double, width: Double, height: Double, mode: UInt32
    ) {
        image(String(decoding: utf8, as: UTF8.self), x: x, y: y, width: width, height: height, mode: mode)
    }

    package func textBlock(
        utf8: UnsafeRawBufferPointer, x: Double, y: Double, maxWidth: Double, maxLines: UInt32, style: UInt32
    ) {
        textBlock(
            TextBlockDrawing(
                text: String(decoding: utf8, as: UTF8.self), x: x, y: y, maxWidth: maxWidth, maxLines: maxLines,
                style: style))
    }

    package func image(_ source: String, x: Double, y: Double, width: Double, height: Double, mode: UInt32) {
        image(source, x: x, y: y, width: width, height: height)
    }
}

/// The most bytes of a `fitted_image` source the host reads (a source is a URL or a path; longer is cut).
package let fittedImageSourceLimit = 65_536

/// What a canvas's host_data points to during one cell call: the backend, unretained with its type, so that each
/// draw call borrows it (`withBackend`: a witness-table call, no reference count; the existential copied out of the
/// target was a retain and a release each call, 5 a card on the 8 MB page), and the item frames the cell reports
/// (docs/ABI.md, "Item frames"), clipped to the cell, the last report of an item winning; none when they are not
/// kept (`keepsFrames` false). On the stack of the cell call (`drawCell`), which host_data points to only during
/// the call, while `drawCell`'s caller holds the backend: nothing is allocated or retained a cell.
private struct CanvasTarget {
    let backend: UnsafeMutableRawPointer
    let backendType: any CanvasBackend.Type
    let width: Double
    let height: Double
    let keepsFrames: Bool
    var frames: [Int: ItemFrame] = [:]
    init<Backend: CanvasBackend>(_ backend: Backend, width: Double, height: Double, keepsFrames: Bool) {
        self.backend = Unmanaged.passUnretained(backend).toOpaque()
        backendType = Backend.self
        self.width = width
        self.height = height
        self.keepsFrames = keepsFrames
    }

    mutating func report(_ item: UInt64, _ x: Double, _ y: Double, _ w: Double, _ h: Double) {
        // No row has more items than FLOOR_TAPPABLE_MAX; a frame for one past it names nothing.
        guard keepsFrames, item < UInt64(FLOOR_TAPPABLE_MAX) else { return }
        frames[Int(item)] = ItemFrame(item: Int(item), x: x, y: y, width: w, height: h).clipped(
            toWidth: width, height: height)
    }
}

extension Adapter {
    /// Draws row `r`'s cell into `backend` through a floor_canvas_t of the row's size: an item of a grid or a
    /// waterfall is its column's width (RowFrame); the backend puts it at its frame. The item frames the cell
    /// reported are kept as the row's (ItemFrames.swift), unless `keepingFrames` is false: a drawing of every
    /// row of a page, which no one taps, keeps none (a row asked for its frames later is drawn again then).
    package func drawCell(row r: Int, into backend: some CanvasBackend, keepingFrames: Bool = true) {
        // A collection item's canvas is its column's width; its item frames are clipped to that cell.
        let cellWidth = cellWidth(ofRow: r)
        var target = CanvasTarget(backend, width: cellWidth, height: rows[r].height, keepsFrames: keepingFrames)
        var canvas = floor_canvas_t(
            struct_size: UInt32(MemoryLayout<floor_canvas_t>.size),
            host_data: nil,  // the target's address, set for the call below
            width: cellWidth,
            height: rows[r].height,
            text: { canvas, x, y, maxWidth, text, style in
                guard let canvas, let text else { return }
                withBackend(canvas) { $0.text(cString: text, x: x, y: y, maxWidth: maxWidth, style: style) }
            },
            image: { canvas, x, y, w, h, source in
                guard let canvas else { return }
                if let source {
                    withBackend(canvas) { $0.image(cString: source, x: x, y: y, width: w, height: h) }
                } else {
                    withBackend(canvas) { $0.image("", x: x, y: y, width: w, height: h) }
                }
            },
            box: { canvas, x, y, w, h in
                guard let canvas else { return }
                withBackend(canvas) { $0.box(x: x, y: y, width: w, height: h) }
            },
            // The same width in every backend (TextMeasure), so the backend is not asked.
            measure_text: { _, text, style in TextMeasure.points(cString: text, style: style) },
            fill: { canvas, x, y, w, h, tone in
                guard let canvas else { return }
                withBackend(canvas) { $0.fill(x: x, y: y, width: w, height: h, tone: tone) }
            },
            // ABI 1.5 part 1: one layout for every backend (HostTextLayout), as measure_text.
            layout_text: { _, text, length, style, maxWidth, maxLines, out in
                HostTextLayout.write(
                    HostTextLayout.block(
                        utf8: text, length: length, style: style, maxWidth: maxWidth, maxLines: maxLines), to: out)
            },
            text_block: { canvas, x, y, maxWidth, maxLines, text, length, style in
                guard let canvas else { return }
                withBackend(canvas) {
                    $0.textBlock(
                        utf8: HostTextLayout.bytes(utf8: text, length: length), x: x, y: y, maxWidth: maxWidth,
                        maxLines: maxLines, style: style)
                }
            },
            // ABI 1.5 parts 2 and 3: item frames (ItemFrames.swift) and the page a carousel draws (PagedRows).
            item_frame: { canvas, item, x, y, w, h in
                guard let canvas else { return }
                targetOf(canvas).pointee.report(item, x, y, w, h)
            },
            page: UInt64(page(ofRow: r)),
            fitted_image: { canvas, x, y, w, h, source, length, mode in
                guard let canvas else { return }
                let bytes = UnsafeRawBufferPointer(
                    start: source, count: source == nil ? 0 : Int(min(length, UInt64(fittedImageSourceLimit))))
                withBackend(canvas) { $0.image(utf8: bytes, x: x, y: y, width: w, height: h, mode: mode) }
            })
        withUnsafeMutablePointer(to: &target) { target in
            canvas.host_data = UnsafeMutableRawPointer(target)
            withUnsafePointer(to: &canvas) { drawCell(row: r, into: $0) }
        }
        if keepingFrames { keepFrames(target.frames, ofRow: r) }
    }
}

/// The target of the cell call in progress (valid only during it; see CanvasTarget).
private func targetOf(_ canvas: UnsafePointer<floor_canvas_t>) -> UnsafeMutablePointer<CanvasTarget> {
    canvas.pointee.host_data!.assumingMemoryBound(to: CanvasTarget.self)
}

/// Calls `body` with the backend of the cell call in progress, borrowed (CanvasTarget).
@inline(__always)
private func withBackend(_ canvas: UnsafePointer<floor_canvas_t>, _ body: (any CanvasBackend) -> Void) {
    let target = targetOf(canvas)
    func open<Backend: CanvasBackend>(_: Backend.Type) {
        Unmanaged<Backend>.fromOpaque(target.pointee.backend)._withUnsafeGuaranteedRef { body($0) }
    }
    open(target.pointee.backendType)
}

/// The recording canvas (HostContract) is a backend like the others: `check` draws every row into one.
extension RecordingCanvas: CanvasBackend {}
