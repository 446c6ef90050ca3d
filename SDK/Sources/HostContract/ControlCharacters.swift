/// Text a plugin or a page supplied, made safe to print: every character a terminal would act on instead
/// of showing is replaced by its visible escape `\uXXXX` (the JSON form, so that the same text stays valid
/// inside a JSON string). Without this a plugin could end a line and print its own `error: ...` line, or
/// colour, move or hide host output.
///
/// Unsafe: C0 controls (U+0000-001F, newline, carriage return and tab included), DEL (U+007F), C1 controls
/// (U+0080-009F, which some terminals read as ESC sequences), and the Unicode bidi embeddings, overrides
/// and isolates (U+202A-202E, U+2066-2069), which reorder what follows them on the line.
///
/// Every sink that prints such text (stderr diagnostics, text output, `--tap`, conform's table and json)
/// calls `escaped`; the JSON writer escapes the same set (`isUnsafe`) as JSON `\uXXXX` escapes.
public enum ControlCharacters {
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` with every unsafe character replaced by `\uXXXX` (lowercase hex). `keepingLineBreaks` keeps
    /// U+000A as is, for text whose own structure is lines (pretty-printed JSON already escaped inside
    /// its strings).
    public static func escaped(_ text: String, keepingLineBreaks: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0) && !(keepingLineBreaks && $0 == "\n") }) else {
            return text
        }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) && !(keepingLineBreaks && scalar == "\n") {
                out.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `\u001b` for ESC: four lowercase hex digits (every unsafe scalar is below U+10000).
    public static func escape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
