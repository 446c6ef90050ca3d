/// The bounds every text call keeps, whatever a plugin passes (ARCHITECTURE.md, "Trust model", "Bounds";
/// docs/ABI.md, "Text layout").
public enum TextLimits {
    /// Bytes of UTF-8 measured: a longer text is measured (and drawn) as its first 1 MiB, so one call
    /// costs at most that much work. 1 MiB is far past any text a cell shows.
    public static let maxBytes = 1 << 20

    /// A width the wrapping can use: NaN and negative widths are 0 (every grapheme then gets a line of
    /// its own); +infinity never wraps.
    public static func width(_ value: Double) -> Double {
        value.isNaN || value < 0 ? 0 : value
    }
}
