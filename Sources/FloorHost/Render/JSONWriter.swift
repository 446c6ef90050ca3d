/// A minimal streaming JSON writer into a byte buffer: the output of a 40,000-row page is megabytes, so
/// it is written directly rather than built as a tree first. Callers write the commas themselves.
///
/// Performance (Scripts/bench, end-to-end figure): a row of `--format json` is about 20 calls into this
/// writer, so each call appends in bulk: no per-byte loop over a string that needs no escaping, and
/// numbers are formatted in place rather than through an intermediate String.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ s: StaticString) {
        if s.utf8CodeUnitCount == 1 {
            bytes.append(s.utf8Start.pointee)
        } else {
            bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
        }
    }

    mutating func raw(_ other: JSONWriter) {
        bytes.append(contentsOf: other.bytes)
    }

    mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            // Copy runs of bytes that need no escape in one append each.
            var start = 0
            for (i, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                if start < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i])) }
                escape(byte)
                start = i + 1
            }
            if start < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case UInt8(ascii: "\n"): raw("\\n")
        case UInt8(ascii: "\r"): raw("\\r")
        case UInt8(ascii: "\t"): raw("\\t")
        default:
            let hex: StaticString = "0123456789abcdef"
            raw("\\u00")
            bytes.append(hex.utf8Start[Int(byte >> 4)])
            bytes.append(hex.utf8Start[Int(byte & 0xf)])
        }
    }

    mutating func number(_ value: Int) {
        // Decimal digits, written backwards into a 24-byte scratch buffer on the stack (Int.min has 20 bytes).
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { digits in
            var magnitude = value.magnitude
            var i = digits.count
            repeat {
                i -= 1
                digits[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                i -= 1
                digits[i] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: digits[i...]))
        }
    }

    /// Integral values print without a fraction ("96", not "96.0"); others in Swift's shortest round-trip form.
    mutating func number(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            number(Int(value))
        } else if value.isFinite {
            bytes.append(contentsOf: String(value).utf8)
        } else {
            raw("null")
        }
    }

    mutating func optional(_ value: String?) {
        if let value { string(value) } else { raw("null") }
    }
}
