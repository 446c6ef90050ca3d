import CFloorABI

/// What measuring a block of text answers (floor_text_layout_t; docs/ABI.md, "Text layout"): how many
/// lines it takes at a width, the widest line, the height (lines x the style's line height), and whether a
/// line limit cut it.
public struct TextLayout: Sendable, Equatable {
    public var lines: Int
    public var width: Double
    public var height: Double
    public var truncated: Bool

    public init(lines: Int, width: Double, height: Double, truncated: Bool) {
        self.lines = lines
        self.width = width
        self.height = height
        self.truncated = truncated
    }

    init(_ raw: floor_text_layout_t) {
        self.init(lines: Int(raw.lines), width: raw.width, height: raw.height, truncated: raw.truncated)
    }

    /// Calls a host's or a canvas's layout_text with `text`'s bytes and length (a string may hold U+0000).
    static func measure(
        _ text: String, word: UInt32, width: Double, maxLines: Int,
        _ call: (UnsafePointer<CChar>?, UInt64, UInt32, Double, UInt32, UnsafeMutablePointer<floor_text_layout_t>) ->
            Void
    ) -> TextLayout {
        text.withUTF8Bytes { measure($0, word: word, width: width, maxLines: maxLines, call) }
    }

    /// The same with the text's UTF-8 bytes.
    static func measure(
        _ bytes: UnsafeBufferPointer<UInt8>, word: UInt32, width: Double, maxLines: Int,
        _ call: (UnsafePointer<CChar>?, UInt64, UInt32, Double, UInt32, UnsafeMutablePointer<floor_text_layout_t>) ->
            Void
    ) -> TextLayout {
        var out = floor_text_layout_t()
        out.struct_size = UInt32(MemoryLayout<floor_text_layout_t>.size)
        call(start(bytes), UInt64(bytes.count), word, width, UInt32(clamping: max(0, maxLines)), &out)
        return TextLayout(out)
    }

    /// Bytes as the C calls take them (with their length: not NUL-terminated).
    static func start(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafePointer<CChar>? {
        bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
    }
}

extension String {
    /// Calls `body` with the string's UTF-8 bytes, valid only during the call: a native string's own, with no
    /// copy of it made (a `var` copy to call `withUTF8` on was a retain and a release a call: a price a card on
    /// the 8 MB page), a small or bridged one's as `withUTF8` gives them.
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}
