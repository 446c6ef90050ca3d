import CFloorABI
import FloorText

/// The host's side of ABI 1.5's text calls (docs/ABI.md, "Text layout"): floor_host_t.layout_text,
/// floor_canvas_t.layout_text and text_block all lay out through `block`, so the same arguments give the
/// same lines in every backend, call and process; the test kit answers with the same function. Style 0 is
/// `CellTextLayout` (1.4's metrics); any other style number is real type from `TextEngine.shared` (`drawnOnce`:
/// from the engine it is given, the same answers). Any thread.
public enum HostTextLayout {
    /// The block for a plugin's `length` bytes at `utf8` (NULL is empty; at most `TextLimits.maxBytes`
    /// are read; invalid UTF-8 is U+FFFD).
    public static func block(
        utf8: UnsafePointer<CChar>?, length: UInt64, style: UInt32, maxWidth: Double, maxLines: UInt32
    ) -> TextBlock {
        block(bytes: bytes(utf8: utf8, length: length), style: style, maxWidth: maxWidth, maxLines: Int(maxLines))
    }

    /// The bytes of a plugin's text that are read: NULL is empty, at most `TextLimits.maxBytes` of `length`.
    public static func bytes(utf8: UnsafePointer<CChar>?, length: UInt64) -> UnsafeRawBufferPointer {
        guard let utf8 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: utf8, count: Int(min(length, UInt64(TextLimits.maxBytes))))
    }

    /// A plugin's `length` bytes as text (NULL is empty; at most `TextLimits.maxBytes`; invalid UTF-8 is U+FFFD).
    public static func string(utf8: UnsafePointer<CChar>?, length: UInt64) -> String {
        String(decoding: bytes(utf8: utf8, length: length), as: UTF8.self)
    }

    public static func block(bytes: UnsafeRawBufferPointer, style: UInt32, maxWidth: Double, maxLines: Int)
        -> TextBlock
    {
        guard let type = TypeStyle(style: style) else {
            return CellTextLayout.layout(String(decoding: bytes, as: UTF8.self), maxWidth: maxWidth, maxLines: maxLines)
        }
        return sharedEngine.layout(utf8: bytes, style: type, maxWidth: maxWidth, maxLines: maxLines)
    }

    /// `block`'s block for a text drawn once (a whole page's text preview), the cache left alone: taken from
    /// the lines the heights kept when it is the next text they kept (TextEngine.measuredBlock, in the cells'
    /// order), else nil (style 0 included); `drawnOnce` then lays it out.
    public static func measuredBlock(bytes: UnsafeRawBufferPointer, style: UInt32, maxWidth: Double, maxLines: Int)
        -> TextBlock?
    {
        guard let type = TypeStyle(style: style) else { return nil }
        return sharedEngine.measuredBlock(utf8: bytes, style: type, maxWidth: maxWidth, maxLines: maxLines)
    }

    /// `block`'s block laid out afresh, the cache and the measures kept left alone (TextEngine.layoutAfresh):
    /// for a text drawn once, on any thread, by `engine` (`TextEngine.second` on a thread that lays texts out
    /// while another uses the shared one).
    public static func drawnOnce(
        bytes: UnsafeRawBufferPointer, style: UInt32, maxWidth: Double, maxLines: Int, engine: TextEngine = .shared
    ) -> TextBlock {
        guard let type = TypeStyle(style: style) else {
            return CellTextLayout.layout(String(decoding: bytes, as: UTF8.self), maxWidth: maxWidth, maxLines: maxLines)
        }
        return engine.layoutAfresh(utf8: bytes, style: type, maxWidth: maxWidth, maxLines: maxLines)
    }

    public static func block(_ text: String, style: UInt32, maxWidth: Double, maxLines: Int) -> TextBlock {
        var text = text
        return text.withUTF8 {
            block(bytes: UnsafeRawBufferPointer($0), style: style, maxWidth: maxWidth, maxLines: maxLines)
        }
    }

    /// What `block(utf8:length:style:maxWidth:maxLines:)`'s block measures: floor_host_t.layout_text's
    /// answer, made without a block (TextEngine.measures).
    public static func measures(
        utf8: UnsafePointer<CChar>?, length: UInt64, style: UInt32, maxWidth: Double, maxLines: UInt32
    ) -> TextMeasures {
        let bytes = bytes(utf8: utf8, length: length)
        guard let type = TypeStyle(style: style) else {
            return TextMeasures(block(bytes: bytes, style: style, maxWidth: maxWidth, maxLines: Int(maxLines)))
        }
        return sharedEngine.measures(utf8: bytes, style: type, maxWidth: maxWidth, maxLines: Int(maxLines))
    }

    /// Writes `block`'s measures into the plugin's struct (see the other `write`).
    public static func write(_ block: TextBlock, to out: UnsafeMutablePointer<floor_text_layout_t>?) {
        write(TextMeasures(block), to: out)
    }

    /// Writes `measures` into the plugin's struct, only the fields its `struct_size` covers (a NULL `out`
    /// or one too small for `lines` is left alone).
    public static func write(_ measures: TextMeasures, to out: UnsafeMutablePointer<floor_text_layout_t>?) {
        guard let out else { return }
        let size = Int(out.pointee.struct_size)
        func covers<T>(_ field: KeyPath<floor_text_layout_t, T>) -> Bool { StructSize.reaches(size, field) }
        if covers(\.lines) { out.pointee.lines = UInt32(clamping: measures.lines) }
        if covers(\.width) { out.pointee.width = measures.width }
        if covers(\.height) { out.pointee.height = measures.height }
        if covers(\.truncated) { out.pointee.truncated = measures.truncated }
    }
}

/// `TextEngine.shared`, read as this module's own constant: a static of another module is retained and released
/// each time it is read (a call a text: 86,000 each way on the 8 MB page's text preview), a constant of this one
/// is not.
let sharedEngine = TextEngine.shared
