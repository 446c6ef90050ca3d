import CFloorABI

/// What a cell draws into: the host's canvas for the current output (text, JSON, HTML). Coordinates are
/// points from the cell's top-left corner. Valid only during the cell call that received it.
public struct Canvas {
    let raw: UnsafePointer<floor_canvas_t>

    /// The cell's size in points: the row's width and its calculated height.
    public var width: Double { raw.pointee.width }
    public var height: Double { raw.pointee.height }

    /// One line of text at (x, y), cut to `maxWidth` points (default: to the right edge).
    public func text(_ text: String, x: Double, y: Double, maxWidth: Double? = nil, style: TextStyle = []) {
        let limit = maxWidth ?? (width - x)
        text.withCString { raw.pointee.text(raw, x, y, limit, $0, style.rawValue) }
    }

    /// An image placeholder naming its source.
    public func image(_ source: String, x: Double, y: Double, width: Double, height: Double) {
        source.withCString { raw.pointee.image(raw, x, y, width, height, $0) }
    }

    /// A frame, or a horizontal rule when `height` is 0.
    public func box(x: Double, y: Double, width: Double, height: Double) {
        raw.pointee.box(raw, x, y, width, height)
    }
}

/// Text styles; a backend may ignore any of them.
public struct TextStyle: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let bold = TextStyle(rawValue: FLOOR_TEXT_BOLD)
    public static let muted = TextStyle(rawValue: FLOOR_TEXT_MUTED)
    public static let accent = TextStyle(rawValue: FLOOR_TEXT_ACCENT)
    public static let center = TextStyle(rawValue: FLOOR_TEXT_CENTER)
}
