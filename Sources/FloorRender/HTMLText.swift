import HostContract

/// Text a page or plugin supplied, made safe inside HTML (ARCHITECTURE.md, "Trust model"): control
/// characters become visible `\uXXXX` escapes first (as in every other output), then the five characters
/// HTML gives a meaning (`& < > " '`) become character references. The result is safe both as element
/// content and inside a double- or single-quoted attribute value.
public enum HTMLText {
    public static func escaped(_ text: String) -> String {
        let visible = ControlCharacters.escaped(text)
        guard visible.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 })
        else {
            return visible
        }
        var out = ""
        out.reserveCapacity(visible.utf8.count + 16)
        for c in visible.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A coordinate a plugin passed, as a CSS pixel length: any double (NaN and infinities included) gives
    /// a short finite number, so a plugin cannot break the style attribute or blow up the layout engine.
    package static func px(_ value: Double) -> String {
        guard value.isFinite else { return "0px" }
        let clamped = max(-100_000, min(100_000, value))
        let rounded = (clamped * 100).rounded() / 100
        return rounded == rounded.rounded() ? "\(Int(rounded))px" : "\(rounded)px"
    }
}
