/// The text of a JSON string's content (the bytes between its quotes) with its escapes resolved, for content
/// the page scanner has validated: `\uXXXX` pairs join into one scalar, a lone surrogate becomes U+FFFD, and
/// any other escaped byte stands for itself (`\"`, `\\`, `\/`). Bounds are checked anyway, so content that was
/// not validated (cut short, a bad hex digit) decodes to something rather than trapping. Runs without escapes
/// are appended whole. Pure; any thread.
package enum JSONStringContent {
    package static func decoded(_ content: UnsafeRawBufferPointer) -> String {
        var utf8: [UInt8] = []
        decode(content, into: &utf8)
        return String(decoding: utf8, as: UTF8.self)
    }

    /// `decoded`'s text as UTF-8, appended to `out`: runs without escapes are copied as they are, each escape
    /// is written as the UTF-8 of what it stands for. No String on the way (a page's escaped strings are
    /// decoded for the signature, the schema check and the fields: 5 % of rendering the benchmark page when
    /// this went through String.UnicodeScalarView).
    package static func decode(_ content: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        out.reserveCapacity(out.count + content.count)
        var i = 0
        while i < content.count {
            if content[i] != UInt8(ascii: "\\") {
                var end = i + 1
                while end < content.count && content[end] != UInt8(ascii: "\\") { end += 1 }
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: content[i..<end]))
                i = end
                continue
            }
            guard i + 1 < content.count else { break }
            let escaped = content[i + 1]
            i += 2
            let value: UInt32
            switch escaped {
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
            default: value = JSONEscape.scalar(escaped)?.value ?? UInt32(escaped)
            }
            appendUTF8(Unicode.Scalar(value)?.value ?? 0xFFFD, to: &out)
        }
    }

    /// The UTF-8 of scalar `v`.
    @inline(__always) private static func appendUTF8(_ v: UInt32, to out: inout [UInt8]) {
        switch v {
        case ..<0x80:
            out.append(UInt8(v))
        case ..<0x800:
            out.append(UInt8(0xC0 | v >> 6))
            out.append(UInt8(0x80 | v & 0x3F))
        case ..<0x10000:
            out.append(UInt8(0xE0 | v >> 12))
            out.append(UInt8(0x80 | v >> 6 & 0x3F))
            out.append(UInt8(0x80 | v & 0x3F))
        default:
            out.append(UInt8(0xF0 | v >> 18))
            out.append(UInt8(0x80 | v >> 12 & 0x3F))
            out.append(UInt8(0x80 | v >> 6 & 0x3F))
            out.append(UInt8(0x80 | v & 0x3F))
        }
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

    /// Whether decoded text `utf8` holds U+FFFD (EF BF BD), which every lone surrogate decodes to.
    package static func hasReplacementCharacter(_ utf8: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i + 2 < utf8.count {
            if utf8[i] == 0xEF && utf8[i + 1] == 0xBF && utf8[i + 2] == 0xBD { return true }
            i += 1
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
