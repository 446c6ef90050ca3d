import HostContract

/// A small JSON document as Foundation's JSONSerialization modelled one (objects unordered, numbers an Int
/// when they fit one and have no fraction or exponent, a Double otherwise), parsed and written back as it
/// parsed and wrote them, byte for byte: what `--tap`'s line, conform's json report and its rewritten
/// samples, and FLOORHOST_PRINT_CHILDREN were built with before floorhost stopped linking Foundation
/// (ARCHITECTURE.md, "Two executables"). Small documents only: pages never go through this type (the page
/// scanner and the JSON cursor read pages without a tree).
package indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    /// An integer above Int.max that fits 64 bits (JSONSerialization kept it exact too).
    case unsignedInt(UInt64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// How `serialized` writes: JSONSerialization's `.prettyPrinted` (two spaces an indent, `" : "` between
    /// a key and its value) and its `.withoutEscapingSlashes`. Keys are always sorted (`.sortedKeys`: every
    /// caller asked for it; unsorted, JSONSerialization wrote them in hash order).
    package struct WritingOptions: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        package static let prettyPrinted = WritingOptions(rawValue: 1)
        package static let withoutEscapingSlashes = WritingOptions(rawValue: 2)
    }

    /// The value as JSON text. A non-finite Double (which JSON cannot hold, and JSONSerialization refused
    /// to write) is written as `null`.
    package func serialized(_ options: WritingOptions = []) -> String {
        var out = ""
        write(into: &out, options: options, indent: 0)
        return out
    }

    private func write(into out: inout String, options: WritingOptions, indent: Int) {
        let pretty = options.contains(.prettyPrinted)
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .unsignedInt(let value): out += String(value)
        case .double(let value):
            guard value.isFinite else {
                out += "null"
                return
            }
            var text = value.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            out += text
        case .string(let value):
            SerializedJSONString.append(value, escapingSlashes: !options.contains(.withoutEscapingSlashes), to: &out)
        case .array(let elements):
            out += "["
            if pretty { out += "\n" }
            for (i, element) in elements.enumerated() {
                if i > 0 { out += pretty ? ",\n" : "," }
                if pretty { out += String(repeating: "  ", count: indent + 1) }
                element.write(into: &out, options: options, indent: indent + 1)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "]"
        case .object(let members):
            out += "{"
            if pretty { out += "\n" }
            for (i, key) in members.keys.sorted(by: Self.keyOrder).enumerated() {
                if i > 0 { out += pretty ? ",\n" : "," }
                if pretty { out += String(repeating: "  ", count: indent + 1) }
                SerializedJSONString.append(key, escapingSlashes: !options.contains(.withoutEscapingSlashes), to: &out)
                out += pretty ? " : " : ":"
                members[key]!.write(into: &out, options: options, indent: indent + 1)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "}"
        }
    }

    /// JSONSerialization's `.sortedKeys` order: NSString's compare with `.numeric`, `.caseInsensitive` and
    /// `.forcedOrdering` in the system locale, that is ICU's collation. For ASCII keys (every key floorhost
    /// and the shipped plugins write) this is that order exactly: punctuation and symbols first in ICU's
    /// order, then runs of digits compared as numbers, then letters without regard to case; keys equal so
    /// far are ordered lowercase first, then fewer leading zeros first. Other characters sort after ASCII
    /// letters by scalar value (ICU would place "é" beside "e").
    package static func keyOrder(_ a: String, _ b: String) -> Bool {
        let x = Array(a.unicodeScalars)
        let y = Array(b.unicodeScalars)
        func isDigit(_ s: Unicode.Scalar) -> Bool { s >= "0" && s <= "9" }
        var i = 0
        var j = 0
        var tie = 0  // the first tertiary difference: < 0 when `a` goes first
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                var endX = i
                while endX < x.count && isDigit(x[endX]) { endX += 1 }
                var endY = j
                while endY < y.count && isDigit(y[endY]) { endY += 1 }
                let digitsX = x[i..<endX].drop { $0 == "0" }
                let digitsY = y[j..<endY].drop { $0 == "0" }
                if digitsX.count != digitsY.count { return digitsX.count < digitsY.count }
                if !digitsX.elementsEqual(digitsY) { return digitsX.lexicographicallyPrecedes(digitsY) }
                if tie == 0 && endX - i != endY - j { tie = (endX - i) - (endY - j) }
                i = endX
                j = endY
                continue
            }
            let p = weight(x[i])
            let q = weight(y[j])
            if p != q { return p < q }
            if tie == 0 && x[i] != y[j] { tie = x[i].properties.isLowercase ? -1 : 1 }
            i += 1
            j += 1
        }
        if (i < x.count) != (j < y.count) { return i == x.count }
        return tie < 0
    }

    /// A scalar's primary weight in ICU's root collation, for ASCII: punctuation and symbols in ICU's order,
    /// then digits (compared as numbers before this is asked), then letters, case folded; then the rest.
    private static func weight(_ scalar: Unicode.Scalar) -> UInt32 {
        let symbols: StaticString = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"
        if scalar.isASCII {
            let byte = UInt8(scalar.value)
            for k in 0..<symbols.utf8CodeUnitCount where symbols.utf8Start[k] == byte { return UInt32(k) }
            if byte >= 0x30 && byte <= 0x39 { return 0x100 + UInt32(byte) }
            if byte >= 0x41 && byte <= 0x5A { return 0x200 + UInt32(byte + 0x20) }
            if byte >= 0x61 && byte <= 0x7A { return 0x200 + UInt32(byte) }
            return 0x80 + UInt32(byte)  // controls: between the symbols and the digits
        }
        return 0x1000 + scalar.value
    }

    /// The member `key` of an object; nil for anything else.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// Parses one JSON document (RFC 8259, at most 512 levels deep, as JSONSerialization allowed); nil when
    /// the bytes are not one (callers treated JSONSerialization's error the same way).
    package static func parse(_ bytes: some Collection<UInt8>) -> JSONValue? {
        var parser = Parser(bytes: Array(bytes))
        parser.whitespace()
        guard let value = parser.value(depth: 0) else { return nil }
        parser.whitespace()
        return parser.at == parser.bytes.count ? value : nil
    }

    private struct Parser {
        let bytes: [UInt8]
        var at = 0

        var next: UInt8? { at < bytes.count ? bytes[at] : nil }

        mutating func whitespace() {
            while let byte = next, byte == 0x20 || byte == 0x0a || byte == 0x0d || byte == 0x09 { at += 1 }
        }

        mutating func literal(_ text: StaticString, _ value: JSONValue) -> JSONValue? {
            let count = text.utf8CodeUnitCount
            guard at + count <= bytes.count,
                bytes[at..<at + count].elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: count))
            else { return nil }
            at += count
            return value
        }

        mutating func value(depth: Int) -> JSONValue? {
            guard depth < 512, let byte = next else { return nil }
            switch byte {
            case UInt8(ascii: "n"): return literal("null", .null)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "\""): return string().map { .string($0) }
            case UInt8(ascii: "["):
                at += 1
                var elements: [JSONValue] = []
                whitespace()
                if next == UInt8(ascii: "]") {
                    at += 1
                    return .array(elements)
                }
                while true {
                    whitespace()
                    guard let element = value(depth: depth + 1) else { return nil }
                    elements.append(element)
                    whitespace()
                    guard let separator = next else { return nil }
                    at += 1
                    if separator == UInt8(ascii: "]") { return .array(elements) }
                    guard separator == UInt8(ascii: ",") else { return nil }
                }
            case UInt8(ascii: "{"):
                at += 1
                var members: [String: JSONValue] = [:]
                whitespace()
                if next == UInt8(ascii: "}") {
                    at += 1
                    return .object(members)
                }
                while true {
                    whitespace()
                    guard next == UInt8(ascii: "\""), let key = string() else { return nil }
                    whitespace()
                    guard next == UInt8(ascii: ":") else { return nil }
                    at += 1
                    whitespace()
                    guard let member = value(depth: depth + 1) else { return nil }
                    members[key] = member
                    whitespace()
                    guard let separator = next else { return nil }
                    at += 1
                    if separator == UInt8(ascii: "}") { return .object(members) }
                    guard separator == UInt8(ascii: ",") else { return nil }
                }
            default: return number()
            }
        }

        mutating func number() -> JSONValue? {
            let start = at
            var integral = true
            if next == UInt8(ascii: "-") { at += 1 }
            guard let first = next, first >= 0x30 && first <= 0x39 else { return nil }
            at += 1
            if first != 0x30 { while let d = next, d >= 0x30 && d <= 0x39 { at += 1 } }
            if next == UInt8(ascii: ".") {
                integral = false
                at += 1
                guard let d = next, d >= 0x30 && d <= 0x39 else { return nil }
                while let d = next, d >= 0x30 && d <= 0x39 { at += 1 }
            }
            if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
                integral = false
                at += 1
                if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { at += 1 }
                guard let d = next, d >= 0x30 && d <= 0x39 else { return nil }
                while let d = next, d >= 0x30 && d <= 0x39 { at += 1 }
            }
            let text = String(decoding: bytes[start..<at], as: UTF8.self)
            if integral, let value = Int(text) { return .int(value) }
            if integral, let value = UInt64(text) { return .unsignedInt(value) }
            return Double(text).map { .double($0) }
        }

        mutating func string() -> String? {
            at += 1
            var scalars = String.UnicodeScalarView()
            var run = at
            func flush(_ end: Int) {
                scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars)
            }
            while let byte = next {
                switch byte {
                case UInt8(ascii: "\""):
                    flush(at)
                    at += 1
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush(at)
                    at += 1
                    guard let escape = next else { return nil }
                    at += 1
                    switch escape {
                    case UInt8(ascii: "u"):
                        guard var unit = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(unit) {
                            guard next == UInt8(ascii: "\\") else { return nil }
                            at += 1
                            guard next == UInt8(ascii: "u") else { return nil }
                            at += 1
                            guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(unit) else { return nil }
                        scalars.append(scalar)
                    default:
                        guard let scalar = JSONEscape.scalar(escape) else { return nil }
                        scalars.append(scalar)
                    }
                    run = at
                case 0..<0x20: return nil
                default: at += 1
                }
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard let value = JSONEscape.hex4(bytes, at: at) else { return nil }
            at += 4
            return value
        }
    }
}
