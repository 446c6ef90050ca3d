/// A minimal streaming JSON writer into a byte buffer: the output of a 40,000-row page is megabytes, so
/// it is written directly rather than built as a tree first. Callers emit commas with `separator()`.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func raw(_ other: JSONWriter) {
        bytes.append(contentsOf: other.bytes)
    }

    mutating func key(_ name: StaticString) {
        raw("\"")
        raw(name)
        raw("\":")
    }

    mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "\n"): raw("\\n")
            case UInt8(ascii: "\r"): raw("\\r")
            case UInt8(ascii: "\t"): raw("\\t")
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                raw("\\u00")
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xf)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func number(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
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

    mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    mutating func optional(_ value: String?) {
        if let value { string(value) } else { raw("null") }
    }
}
