/// The text of a JSON string's content (the bytes between its quotes) with its escapes resolved, for content
/// the page scanner has validated: `\uXXXX` pairs join into one scalar, a lone surrogate becomes U+FFFD, and
/// any other escaped byte stands for itself (`\"`, `\\`, `\/`). Bounds are checked anyway, so content that was
/// not validated (cut short, a bad hex digit) decodes to something rather than trapping. Runs without escapes
/// are appended whole. Pure; any thread.
package enum JSONStringContent {
    package static func decoded(_ content: UnsafeRawBufferPointer) -> String {
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < content.count {
            if content[i] != UInt8(ascii: "\\") {
                var end = i + 1
                while end < content.count && content[end] != UInt8(ascii: "\\") { end += 1 }
                scalars.append(
                    contentsOf: String(decoding: UnsafeRawBufferPointer(rebasing: content[i..<end]), as: UTF8.self)
                        .unicodeScalars)
                i = end
                continue
            }
            guard i + 1 < content.count else { break }
            let escaped = content[i + 1]
            i += 2
            let value: UInt32
            switch escaped {
            case UInt8(ascii: "b"): value = 0x08
            case UInt8(ascii: "f"): value = 0x0C
            case UInt8(ascii: "n"): value = 0x0A
            case UInt8(ascii: "r"): value = 0x0D
            case UInt8(ascii: "t"): value = 0x09
            case UInt8(ascii: "u"):
                guard let unit = hex4(content, at: i) else {
                    value = 0xFFFD
                    break
                }
                i += 4
                if (0xD800...0xDBFF).contains(unit), i + 6 <= content.count, content[i] == UInt8(ascii: "\\"),
                    content[i + 1] == UInt8(ascii: "u"), let trail = hex4(content, at: i + 2),
                    (0xDC00...0xDFFF).contains(trail)
                {
                    value = 0x10000 + ((unit - 0xD800) << 10) + (trail - 0xDC00)
                    i += 6
                } else {
                    value = unit
                }
            default: value = UInt32(escaped)
            }
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(scalars)
    }

    /// Whether the content holds U+0000 (JSON writes it only as the escape `\u0000`): a string a
    /// NUL-terminated C string would cut there.
    package static func hasNUL(_ content: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i + 5 < content.count {
            guard content[i] == UInt8(ascii: "\\") else {
                i += 1
                continue
            }
            if content[i + 1] == UInt8(ascii: "u"), hex4(content, at: i + 2) == 0 { return true }
            i += 2
        }
        return false
    }

    /// Whether the content holds a `\uXXXX` escape that is half of a surrogate pair without its other half
    /// (which `decoded` turns into U+FFFD): what a page is told about rather than shown silently replaced.
    package static func hasLoneSurrogate(_ content: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i + 1 < content.count {
            guard content[i] == UInt8(ascii: "\\") else {
                i += 1
                continue
            }
            guard content[i + 1] == UInt8(ascii: "u"), let unit = hex4(content, at: i + 2) else {
                i += 2
                continue
            }
            i += 6
            if (0xDC00...0xDFFF).contains(unit) { return true }
            guard (0xD800...0xDBFF).contains(unit) else { continue }
            guard i + 6 <= content.count, content[i] == UInt8(ascii: "\\"), content[i + 1] == UInt8(ascii: "u"),
                let trail = hex4(content, at: i + 2), (0xDC00...0xDFFF).contains(trail)
            else { return true }
            i += 6
        }
        return false
    }

    /// The four hex digits at `at`, or nil when there are not four.
    private static func hex4(_ content: UnsafeRawBufferPointer, at: Int) -> UInt32? {
        guard at + 4 <= content.count else { return nil }
        var value: UInt32 = 0
        for k in at..<(at + 4) {
            let b = content[k]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
