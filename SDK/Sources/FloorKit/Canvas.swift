import CFloorABI

/// What a cell draws into: the host's canvas for the current output (text, JSON, HTML). Coordinates are
/// points from the cell's top-left corner. Valid only during the cell call that received it.
public struct Canvas {
    let raw: UnsafePointer<floor_canvas_t>

    /// The cell's size in points: the row's width and its calculated height.
    public var width: Double { raw.pointee.width }
    public var height: Double { raw.pointee.height }

    /// One line of text at (x, y), cut to `maxWidth` points (default: to the right edge). The call takes a
    /// NUL-terminated string: a U+0000 in `text` goes as its visible escape `\u0000` (what every host
    /// output shows for it), never as the end of the string (docs/ABI-1.5.md, part 5).
    public func text(_ text: String, x: Double, y: Double, maxWidth: Double? = nil, style: TextStyle = []) {
        let limit = maxWidth ?? (width - x)
        Self.whole(text).withCString { raw.pointee.text(raw, x, y, limit, $0, style.rawValue) }
    }

    /// A picture from `source` (a URL, or a path relative to the page) in its frame: `.fill` covers the
    /// frame, cropping what is outside; `.fit` shows all of it inside the frame (docs/ABI.md, "Images").
    /// Where the picture cannot be had, a placeholder naming it. On a host before ABI 1.5, always `.fill`,
    /// and a U+0000 in `source` goes as `text` passes it; from 1.5 the source goes whole, with its length.
    public func image(
        _ source: String, x: Double, y: Double, width: Double, height: Double, fit: ImageFit = .fill
    ) {
        guard StructSize.reaches(raw.pointee.struct_size, \floor_canvas_t.fitted_image),
            let fitted = raw.pointee.fitted_image
        else {
            Self.whole(source).withCString { raw.pointee.image(raw, x, y, width, height, $0) }
            return
        }
        var source = source
        source.withUTF8 { bytes in
            let start = bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            fitted(raw, x, y, width, height, start, UInt64(bytes.count), fit.rawValue)
        }
    }

    /// `text` with each U+0000 written as `\u0000`, for a call that takes a NUL-terminated string.
    static func whole(_ text: String) -> String {
        guard text.utf8.contains(0) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\u{0}" { out.append(contentsOf: "\\u0000".unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    /// A frame, or a horizontal rule when `height` is 0.
    public func box(x: Double, y: Double, width: Double, height: Double) {
        raw.pointee.box(raw, x, y, width, height)
    }

    /// Whether the host's canvas has the ABI 1.4 additions (measure_text, fill, `.strike`). A 1.3 host's
    /// canvas ends before them: the SDK then measures itself and draws a fill as a frame.
    public var isABI14: Bool {
        StructSize.reaches(raw.pointee.struct_size, \floor_canvas_t.fill)
    }

    /// Whether struck text shows as struck (ABI 1.4 hosts). A 1.3 host ignores the style bit.
    public var supportsStrike: Bool { isABI14 }

    /// The width of `text` on one line in `style`, in points: the same in every backend, and what
    /// `TextMetrics.width(of:style:)` returns in a height calculator.
    public func measure(_ text: String, style: TextStyle = []) -> Double {
        guard isABI14, let measure = raw.pointee.measure_text else { return TextMetrics.width(of: text, style: style) }
        return Self.whole(text).withCString { measure(raw, $0, style.rawValue) }
    }

    /// Whether the host's canvas has ABI 1.5's text calls (layout_text, text_block). Without them `layout`
    /// and `textBlock` fall back to cell metrics drawn with `text`, line by line.
    public var hasTextBlocks: Bool {
        StructSize.reaches(raw.pointee.struct_size, \floor_canvas_t.text_block) && raw.pointee.layout_text != nil
            && raw.pointee.text_block != nil
    }

    /// What `textBlock` with the same arguments draws: lines, widest line, height. The same answer as
    /// `TextMetrics.layout` in a height calculator (docs/ABI.md, "Text layout").
    public func layout(_ text: String, font: TextFont, style: TextStyle = [], width: Double, maxLines: Int = 0)
        -> TextLayout
    {
        guard hasTextBlocks, let layout = raw.pointee.layout_text else {
            return TextMetrics.layout(text, font: font, style: style, width: width, maxLines: maxLines)
        }
        return TextLayout.measure(text, word: font.word(style), width: width, maxLines: maxLines) {
            layout(raw, $0, $1, $2, $3, $4, $5)
        }
    }

    /// A block of text wrapped at `width` points from (x, y), at most `maxLines` lines (0: no limit; a cut
    /// text's last line ends in an ellipsis), the first line's top at y and the lines `font.lineHeight`
    /// apart: exactly the lines `layout` measures. On a host before ABI 1.5, cell-metric lines 12 points
    /// apart, drawn with `text`.
    public func textBlock(
        _ text: String, x: Double, y: Double, width: Double, maxLines: Int = 0, font: TextFont, style: TextStyle = []
    ) {
        guard hasTextBlocks, let block = raw.pointee.text_block else {
            let (lines, _) = CellLines.lines(text, width: width, maxLines: maxLines)
            for (i, line) in lines.enumerated() {
                self.text(line, x: x, y: y + Double(i) * CellLines.lineHeight, maxWidth: width, style: style)
            }
            return
        }
        let word = font.word(style)
        text.withUTF8Bytes { bytes in
            let start = bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            block(raw, x, y, width, UInt32(clamping: max(0, maxLines)), start, UInt64(bytes.count), word)
        }
    }

    /// A filled rectangle in `tone`; draw it before what goes on top. On a 1.3 host, a frame instead.
    public func fill(x: Double, y: Double, width: Double, height: Double, tone: Tone = .subtle) {
        guard isABI14, let fill = raw.pointee.fill else {
            if width > 0 && height > 0 { box(x: x, y: y, width: width, height: height) }
            return
        }
        fill(raw, x, y, width, height, tone.rawValue)
    }
}

extension Canvas {
    /// Says where tappable item `item` (numbered as `taps` and `action` number them, across every page of a
    /// paged row) is in this cell, so that taps, the selection highlight and impressions find it (docs/ABI.md,
    /// "Item frames"). The host clips the frame to the cell; the last frame given for an item wins. A row
    /// that gives none has its width shared equally by its items. Does nothing on a host without frames.
    public func itemFrame(_ item: Int, x: Double, y: Double, width: Double, height: Double) {
        guard item >= 0, StructSize.reaches(raw.pointee.struct_size, \floor_canvas_t.item_frame),
            let report = raw.pointee.item_frame
        else { return }
        report(raw, UInt64(item), x, y, width, height)
    }

    /// The horizontal page this cell draws, 0 to `pages - 1` of its row type's `pages` (docs/ABI.md, "Paged
    /// rows"); 0 when the row is not paged or the host predates paging.
    public var page: Int {
        guard StructSize.reaches(raw.pointee.struct_size, \floor_canvas_t.page) else { return 0 }
        return Int(clamping: raw.pointee.page)
    }
}

/// How `Canvas.image` puts a picture in its frame (floor_abi.h FLOOR_IMAGE_*).
public enum ImageFit: UInt32, Sendable {
    /// Cover the frame, cropping what is outside (a banner, a product photo).
    case fill = 0
    /// All of the picture inside the frame (an icon, a logo).
    case fit = 1
}

/// The tone of `Canvas.fill` (floor_abi.h FLOOR_TONE_*).
public struct Tone: RawRepresentable, Sendable, Equatable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// A light background behind a card or a group.
    public static let subtle = Tone(rawValue: FLOOR_TONE_SUBTLE)
    /// Grey: a placeholder or a disabled area.
    public static let muted = Tone(rawValue: FLOOR_TONE_MUTED)
    /// The price colour: a badge or a sale tag.
    public static let accent = Tone(rawValue: FLOOR_TONE_ACCENT)
}

/// Text styles; a backend may ignore any of them.
public struct TextStyle: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let bold = TextStyle(rawValue: FLOOR_TEXT_BOLD)
    public static let muted = TextStyle(rawValue: FLOOR_TEXT_MUTED)
    public static let accent = TextStyle(rawValue: FLOOR_TEXT_ACCENT)
    public static let center = TextStyle(rawValue: FLOOR_TEXT_CENTER)
    /// Struck through (an old price). ABI 1.4; a 1.3 host draws the text without the line.
    public static let strike = TextStyle(rawValue: FLOOR_TEXT_STRIKE)
}
