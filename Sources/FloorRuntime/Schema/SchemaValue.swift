import FloorCore

/// A small JSON document model for schemas: parsed from a plugin's `schema_json`, assembled into the page
/// schema, and written back out. Objects keep their members' order (a plugin's fields print in the order it
/// declared them), which Foundation's JSONSerialization does not. Schemas are small; pages never go
/// through this type (the page scanner and SchemaValidator read pages without a DOM).
public indirect enum SchemaValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number's value and its text as written (kept so that output repeats it exactly).
    case number(Double, String)
    case string(String)
    case array([SchemaValue])
    case object([(String, SchemaValue)])

    public static func == (a: SchemaValue, b: SchemaValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x, _), .number(let y, _)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// This schema with every `"additionalProperties": false` removed, at any depth: objects then accept
    /// fields they do not name (a schema for `additionalProperties` that is itself a schema is kept).
    public func allowingUnknownFields() -> SchemaValue {
        switch self {
        case .array(let elements): return .array(elements.map { $0.allowingUnknownFields() })
        case .object(let members):
            return .object(
                members.compactMap { key, value in
                    key == "additionalProperties" && value == .bool(false) ? nil : (key, value.allowingUnknownFields())
                })
        default: return self
        }
    }

    /// The last value of `key` in an object (JSON's usual rule for a repeated key); nil otherwise.
    public subscript(key: String) -> SchemaValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// Parses JSON text (RFC 8259), at most `maxDepth` levels deep.
    public static func parse(_ text: String, maxDepth: Int = 128) throws(SyntaxError) -> SchemaValue {
        var parser = Parser(bytes: Array(text.utf8), maxDepth: maxDepth)
        parser.whitespace()
        let value = try parser.value(depth: 0)
        parser.whitespace()
        guard parser.pos == parser.bytes.count else {
            throw SyntaxError(offset: parser.pos, reason: "unexpected text after the value")
        }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        let maxDepth: Int
        var pos = 0

        mutating func whitespace() {
            while pos < bytes.count,
                bytes[pos] == 0x20 || bytes[pos] == 0x0A || bytes[pos] == 0x0D || bytes[pos] == 0x09
            { pos += 1 }
        }

        func fail(_ reason: String) -> SyntaxError { SyntaxError(offset: pos, reason: reason) }

        mutating func literal(_ word: String) -> Bool {
            let w = Array(word.utf8)
            guard pos + w.count <= bytes.count, Array(bytes[pos..<pos + w.count]) == w else { return false }
            pos += w.count
            return true
        }

        mutating func value(depth: Int) throws(SyntaxError) -> SchemaValue {
            guard depth < maxDepth else { throw fail("nested deeper than \(maxDepth) levels") }
            guard pos < bytes.count else { throw fail("unexpected end") }
            switch bytes[pos] {
            case UInt8(ascii: "{"):
                pos += 1
                whitespace()
                var members: [(String, SchemaValue)] = []
                if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") {
                    pos += 1
                    return .object(members)
                }
                while true {
                    guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                    let key = try string()
                    whitespace()
                    guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                    pos += 1
                    whitespace()
                    members.append((key, try value(depth: depth + 1)))
                    whitespace()
                    guard pos < bytes.count else { throw fail("unexpected end") }
                    if bytes[pos] == UInt8(ascii: ",") {
                        pos += 1
                        whitespace()
                        continue
                    }
                    if bytes[pos] == UInt8(ascii: "}") {
                        pos += 1
                        return .object(members)
                    }
                    throw fail("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                pos += 1
                whitespace()
                var elements: [SchemaValue] = []
                if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") {
                    pos += 1
                    return .array(elements)
                }
                while true {
                    elements.append(try value(depth: depth + 1))
                    whitespace()
                    guard pos < bytes.count else { throw fail("unexpected end") }
                    if bytes[pos] == UInt8(ascii: ",") {
                        pos += 1
                        whitespace()
                        continue
                    }
                    if bytes[pos] == UInt8(ascii: "]") {
                        pos += 1
                        return .array(elements)
                    }
                    throw fail("expected ',' or ']'")
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): if literal("true") { return .bool(true) }
            case UInt8(ascii: "f"): if literal("false") { return .bool(false) }
            case UInt8(ascii: "n"): if literal("null") { return .null }
            default:
                let start = pos
                if bytes[pos] == UInt8(ascii: "-") { pos += 1 }
                while pos < bytes.count,
                    (0x30...0x39).contains(bytes[pos]) || bytes[pos] == UInt8(ascii: ".")
                        || bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E")
                        || bytes[pos] == UInt8(ascii: "+")
                        || (bytes[pos] == UInt8(ascii: "-") && pos > start)
                { pos += 1 }
                let text = String(decoding: bytes[start..<pos], as: UTF8.self)
                if let number = Double(text), !text.isEmpty, text.first != "+", !text.hasPrefix("-."),
                    !text.hasPrefix(".")
                {
                    return .number(number, text)
                }
                pos = start
            }
            throw fail("expected a value")
        }

        mutating func string() throws(SyntaxError) -> String {
            pos += 1
            // Most strings hold no escape: their bytes are their text, made into a String at once (through
            // String.UnicodeScalarView a string cost thousands of instructions: 12 M to read a scan cache).
            var end = pos
            while end < bytes.count, bytes[end] >= 0x20, bytes[end] != UInt8(ascii: "\""),
                bytes[end] != UInt8(ascii: "\\")
            {
                end += 1
            }
            if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
                defer { pos = end + 1 }
                return String(decoding: bytes[pos..<end], as: UTF8.self)
            }
            var scalars = String.UnicodeScalarView()
            var run = pos
            func flush(_ end: Int) {
                scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars)
            }
            while pos < bytes.count {
                let b = bytes[pos]
                if b == UInt8(ascii: "\"") {
                    flush(pos)
                    pos += 1
                    return String(scalars)
                }
                if b < 0x20 { throw fail("control character in a string") }
                if b != UInt8(ascii: "\\") {
                    pos += 1
                    continue
                }
                flush(pos)
                guard pos + 1 < bytes.count else { break }
                let e = bytes[pos + 1]
                pos += 2
                switch e {
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"),
                        bytes[pos + 1] == UInt8(ascii: "u")
                    {
                        pos += 2
                        let low = try hex4()
                        code =
                            (0xDC00..<0xE000).contains(low)
                            ? 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                    }
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default:
                    guard let scalar = JSONEscape.scalar(e) else { throw fail("invalid escape") }
                    scalars.append(scalar)
                }
                run = pos
            }
            throw fail("unterminated string")
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard let code = JSONEscape.hex4(bytes, at: pos) else { throw fail("invalid \\u escape") }
            pos += 4
            return code
        }
    }

    /// JSON text, indented by two spaces a level (`indent` nil: on one line).
    public func text(indent: Int? = 2) -> String {
        var out = ""
        write(into: &out, indent: indent, level: 0)
        return out
    }

    private func write(into out: inout String, indent: Int?, level: Int) {
        func newline(_ level: Int) {
            guard let indent else { return }
            out += "\n" + String(repeating: " ", count: indent * level)
        }
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(_, let text): out += text
        case .string(let s): out += FloorSchema.quoted(s)
        case .array(let elements):
            if elements.isEmpty {
                out += "[]"
                return
            }
            // Names and values ("required", "enum", "type") read best on one line.
            if elements.allSatisfy({ if case .array = $0 { false } else if case .object = $0 { false } else { true } })
            {
                out += "[" + elements.map { $0.text(indent: nil) }.joined(separator: indent == nil ? "," : ", ") + "]"
                return
            }
            out += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { out += "," }
                newline(level + 1)
                element.write(into: &out, indent: indent, level: level + 1)
            }
            newline(level)
            out += "]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                newline(level + 1)
                out += FloorSchema.quoted(key) + (indent == nil ? ":" : ": ")
                value.write(into: &out, indent: indent, level: level + 1)
            }
            newline(level)
            out += "}"
        }
    }
}
