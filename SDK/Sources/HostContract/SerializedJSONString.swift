/// A string written as a JSON string literal exactly as Foundation's JSONSerialization writes it, which the
/// snapshots conform stores (DrawingText), `--tap`'s line and conform's json report were written with
/// before floorhost stopped linking Foundation: `"` and `\` escaped, `/` as `\/` unless `escapingSlashes` is
/// false, U+0008 U+000C `\n` `\r` `\t` as their short escapes, other C0 controls as `\u00xx` (lower-case
/// hex), everything else (DEL, C1, bidi controls, non-ASCII) as itself. Callers that print to a terminal
/// escape those afterwards (ControlCharacters.escaped), as they did.
public enum SerializedJSONString {
    /// Appends `text` as a quoted JSON string to `out`.
    public static func append(_ text: String, escapingSlashes: Bool, to out: inout String) {
        out.unicodeScalars.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += escapingSlashes ? "\\/" : "/"
            case "\u{8}": out += "\\b"
            case "\u{c}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{0}"..."\u{f}": out += "\\u000" + String(scalar.value, radix: 16)
            case "\u{10}"..."\u{1f}": out += "\\u00" + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out.unicodeScalars.append("\"")
    }

    /// `text` as a quoted JSON string.
    public static func quoted(_ text: String, escapingSlashes: Bool) -> String {
        var out = ""
        append(text, escapingSlashes: escapingSlashes, to: &out)
        return out
    }
}
