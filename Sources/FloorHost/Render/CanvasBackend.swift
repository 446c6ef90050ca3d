import CFloorABI

/// An output backend's drawing surface for one cell. Coordinates are points from the cell's top-left.
/// Each output (text, JSON, HTML) implements this once; plugins never know which one they draw into.
protocol CanvasBackend: AnyObject {
    func text(_ text: String, x: Double, y: Double, maxWidth: Double, style: UInt32)
    func image(_ source: String, x: Double, y: Double, width: Double, height: Double)
    func box(x: Double, y: Double, width: Double, height: Double)
}

extension Adapter {
    /// Draws row `r`'s cell into `backend` through a floor_canvas_t of the row's size.
    func drawCell(row r: Int, into backend: some CanvasBackend) {
        var canvas = floor_canvas_t(
            struct_size: UInt32(MemoryLayout<floor_canvas_t>.size),
            host_data: Unmanaged.passUnretained(backend as AnyObject).toOpaque(),
            width: width, height: rows[r].height,
            text: { canvas, x, y, maxWidth, text, style in
                guard let canvas, let text else { return }
                backendOf(canvas).text(String(cString: text), x: x, y: y, maxWidth: maxWidth, style: style)
            },
            image: { canvas, x, y, w, h, source in
                guard let canvas else { return }
                backendOf(canvas).image(source.map { String(cString: $0) } ?? "", x: x, y: y, width: w, height: h)
            },
            box: { canvas, x, y, w, h in
                guard let canvas else { return }
                backendOf(canvas).box(x: x, y: y, width: w, height: h)
            })
        withUnsafePointer(to: &canvas) { drawCell(row: r, into: $0) }
    }
}

private func backendOf(_ canvas: UnsafePointer<floor_canvas_t>) -> any CanvasBackend {
    Unmanaged<AnyObject>.fromOpaque(canvas.pointee.host_data!).takeUnretainedValue() as! any CanvasBackend
}
