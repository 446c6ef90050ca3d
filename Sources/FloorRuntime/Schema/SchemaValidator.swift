import FloorCore
import Foundation

/// One way a floor object departs from its type's schema, with the JSON path relative to the floor
/// ("items[2].tittle"; "" for the floor itself) and a message that says what was expected.
public struct SchemaFinding: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case unknownField, wrongType, missingField, notAllowed, outOfRange
    }
    public let kind: Kind
    public let path: String
    public let message: String

    /// A page repeats a mistake in every item (a CMS template's typo): a floor's first findings are listed,
    /// the rest counted in one line, so the output stays readable whatever the floor's size.
    public static let shownPerFloor = 20
}

/// Checks a floor object against its floor type's FloorSchema, reading the floor's bytes where the page has
/// them: no DOM, no copy; a string or a key becomes a Swift String only for a message or an enum. The bytes
/// must be one JSON value the page scanner has already validated (well-formed JSON, valid UTF-8, nesting
/// bounded), which is why this reader never fails on syntax. Recursion follows the schema, not the data:
/// values deeper than the schema describes are skipped without recursion, so a page cannot deepen the stack.
/// Cost: one pass over the floor's bytes, a property lookup (a few byte compares) per key.
/// Pure; safe on any thread.
public struct SchemaValidator {
    private let raw: UnsafeRawBufferPointer
    private var pos: Int
    private let typeName: String
    private var path: [PathPart] = []
    private var findings: [SchemaFinding] = []

    private enum PathPart {
        case key(start: Int, end: Int, escaped: Bool)
        case index(Int)
    }

    /// The findings for the floor object in `bytes` (exactly the floor's value) of floor type `typeName`.
    /// Precondition: `bytes` passed the page scanner (SchemaCheck wraps a sample in a page to make sure).
    public static func validate(_ bytes: UnsafeRawBufferPointer, against schema: FloorSchema, typeName: String)
        -> [SchemaFinding]
    {
        var validator = SchemaValidator(raw: bytes, pos: 0, typeName: typeName)
        validator.whitespace()
        guard validator.pos < bytes.count else { return [] }
        validator.value(schema)
        return validator.findings
    }

    @inline(__always) private func byte(_ i: Int) -> UInt8 { raw.load(fromByteOffset: i, as: UInt8.self) }

    @inline(__always) private mutating func whitespace() {
        while pos < raw.count {
            let b = byte(pos)
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            pos += 1
        }
    }

    private func kind(at i: Int) -> FloorSchema.Kinds {
        switch byte(i) {
        case UInt8(ascii: "{"): .object
        case UInt8(ascii: "["): .array
        case UInt8(ascii: "\""): .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): .boolean
        case UInt8(ascii: "n"): .null
        default: .number
        }
    }

    private mutating func value(_ schema: FloorSchema) {
        let start = pos
        var found = kind(at: pos)
        if found == .number {
            // Most numbers only need to be numbers: read the value only when the schema asks about it.
            guard
                !schema.kinds.contains(.number) || schema.allowed != nil || schema.minimum != nil
                    || schema.maximum != nil
            else {
                skipValue()
                return
            }
            let number = self.number()
            if number.integral { found = .integer }
            guard schema.kinds.contains(found) else {
                note(
                    .wrongType,
                    "\(typeName) expects \(schema.kinds.phrase) here, found \(found == .integer ? "an integer" : "a number with a fraction") (\(text(start, pos)))"
                )
                return
            }
            if let allowed = schema.allowed, !allowed.contains(FloorSchema.numberText(number.value)) {
                note(
                    .notAllowed,
                    "\(typeName) allows only \(allowed.joined(separator: ", ")) here, found \(text(start, pos))")
            } else if let minimum = schema.minimum, number.value < minimum {
                note(
                    .outOfRange,
                    "\(typeName) expects at least \(FloorSchema.numberText(minimum)) here, found \(text(start, pos))")
            } else if let maximum = schema.maximum, number.value > maximum {
                note(
                    .outOfRange,
                    "\(typeName) expects at most \(FloorSchema.numberText(maximum)) here, found \(text(start, pos))")
            }
            return
        }
        guard schema.kinds.contains(found) else {
            skipValue()
            note(.wrongType, "\(typeName) expects \(schema.kinds.phrase) here, found \(found.phrase)")
            return
        }
        switch found {
        case .object: object(schema)
        case .array: array(schema)
        case .string:
            let span = string()
            if let allowed = schema.allowed {
                let value = FloorSchema.quoted(decoded(span.start, span.end, escaped: span.escaped))
                if !allowed.contains(value) {
                    note(.notAllowed, "\(typeName) allows only \(allowed.joined(separator: ", ")) here, found \(value)")
                }
            }
        default:
            skipValue()
            if let allowed = schema.allowed, !allowed.contains(text(start, pos)) {
                note(
                    .notAllowed,
                    "\(typeName) allows only \(allowed.joined(separator: ", ")) here, found \(text(start, pos))")
            }
        }
    }

    private mutating func object(_ schema: FloorSchema) {
        // Which properties were present, for `required`: a bit each up to 64 (no allocation, no reference
        // counting per object: this runs for every item of a floor), an array past that.
        var seenBits: UInt64 = 0
        var seenMore: [Bool]?
        var unknownSeen: Set<String>?
        pos += 1
        whitespace()
        if byte(pos) == UInt8(ascii: "}") {
            pos += 1
        } else {
            while true {
                let key = string()
                whitespace()
                pos += 1  // ':'
                whitespace()
                path.append(.key(start: key.start, end: key.end, escaped: key.escaped))
                let index =
                    key.escaped
                    ? schema.properties.firstIndex { $0.name == decoded(key.start, key.end, escaped: true) }
                    : schema.property(UnsafeRawBufferPointer(rebasing: raw[key.start..<key.end]))
                if let index {
                    if index < 64 {
                        seenBits |= 1 << UInt64(index)
                    } else {
                        if seenMore == nil { seenMore = [Bool](repeating: false, count: schema.properties.count) }
                        seenMore![index] = true
                    }
                    value(schema.propertySchemas[index])
                } else {
                    switch schema.additional {
                    case .any: skipValue()
                    case .schema(let other): value(other)
                    case .forbidden:
                        skipValue()
                        let name = decoded(key.start, key.end, escaped: key.escaped)
                        // A repeated unknown key is one finding (the scanner reports the repetition).
                        if unknownSeen == nil { unknownSeen = [] }
                        if unknownSeen!.insert(name).inserted { unknown(name, among: schema) }
                    }
                }
                path.removeLast()
                whitespace()
                let b = byte(pos)
                pos += 1
                if b == UInt8(ascii: "}") { break }
                whitespace()
            }
        }
        if let bits = schema.requiredBits, bits & ~seenBits == 0 { return }
        for name in schema.required {
            let index = schema.properties.firstIndex { $0.name == name }
            if let index, index < 64 ? seenBits & (1 << UInt64(index)) != 0 : seenMore?[index] == true { continue }
            let expected = index.map { " (\(schema.properties[$0].schema.kinds.phrase))" } ?? ""
            // Named by the missing field's own path, as a decoder names it ("items[0].img").
            note(.missingField, "missing required field '\(name)'\(expected) of \(typeName)", field: name)
        }
    }

    private mutating func unknown(_ name: String, among schema: FloorSchema) {
        let names = schema.properties.map(\.name)
        let hint =
            Suggestion.closest(to: name, among: names).map { "; did you mean '\($0)'?" }
            ?? (names.isEmpty ? "; it has no fields here" : " (its fields here: \(names.joined(separator: ", ")))")
        note(.unknownField, "unknown field of \(typeName)\(hint)")
    }

    private mutating func array(_ schema: FloorSchema) {
        guard let items = schema.items, !(items.kinds == .any && items.isUnconstrained) else {
            skipValue()
            return
        }
        pos += 1
        whitespace()
        if byte(pos) == UInt8(ascii: "]") {
            pos += 1
            return
        }
        var index = 0
        while true {
            path.append(.index(index))
            value(items)
            path.removeLast()
            whitespace()
            let b = byte(pos)
            pos += 1
            if b == UInt8(ascii: "]") { return }
            whitespace()
            index += 1
        }
    }

    // MARK: Reading

    /// Precondition: at a quote. Leaves `pos` after the closing quote; the span is the content.
    private mutating func string() -> (start: Int, end: Int, escaped: Bool) {
        pos += 1
        let start = pos
        var escaped = false
        while true {
            let b = byte(pos)
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") {
                escaped = true
                pos += 2
            } else {
                pos += 1
            }
        }
        pos += 1
        return (start, pos - 1, escaped)
    }

    private mutating func number() -> (value: Double, integral: Bool) {
        let start = pos
        var plain = true
        while pos < raw.count {
            let b = byte(pos)
            if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
                plain = false
            } else if !(b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || (0x30...0x39).contains(b)) {
                break
            }
            pos += 1
        }
        // The scanner validated the number, and a byte that is not part of it follows (the floor ends with
        // `}`), so strtod stops inside the buffer.
        let value = strtod(raw.baseAddress!.assumingMemoryBound(to: CChar.self) + start, nil)
        return (value, plain || (value.isFinite && value.rounded() == value))
    }

    /// Skips one value of any kind, iteratively.
    private mutating func skipValue() {
        var depth = 0
        repeat {
            switch byte(pos) {
            case UInt8(ascii: "\""):
                _ = string()
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ","), UInt8(ascii: ":"), 0x20, 0x0A, 0x0D, 0x09: break
            default:
                // A scalar: up to the next structural byte or whitespace.
                while pos < raw.count {
                    let b = byte(pos)
                    if b == UInt8(ascii: ",") || b == UInt8(ascii: "}") || b == UInt8(ascii: "]") || b == 0x20
                        || b == 0x0A || b == 0x0D || b == 0x09
                    {
                        break
                    }
                    pos += 1
                }
                continue
            }
            pos += 1
        } while depth > 0 && pos < raw.count
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: raw[start..<end]), as: UTF8.self)
    }

    /// A string's content (between its quotes) as text, escapes resolved.
    private func decoded(_ start: Int, _ end: Int, escaped: Bool) -> String {
        guard escaped else { return text(start, end) }
        return JSONStringContent.decoded(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
    }

    private mutating func note(_ kind: SchemaFinding.Kind, _ message: String, field: String? = nil) {
        var out = ""
        for part in path {
            switch part {
            case .key(let start, let end, let escaped):
                if !out.isEmpty { out += "." }
                out += decoded(start, end, escaped: escaped)
            case .index(let i): out += "[\(i)]"
            }
        }
        if let field { out += out.isEmpty ? field : "." + field }
        findings.append(SchemaFinding(kind: kind, path: out, message: message))
    }
}
