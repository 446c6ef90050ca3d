import FloorCore
import FoundationEssentials

/// One way a floor object departs from its type's schema, with the JSON path relative to the floor
/// ("items[2].tittle"; "" for the floor itself) and a message that says what was expected.
public struct SchemaFinding: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// `nearMiss`: an unknown field one edit or a case away from a known one (Suggestion.nearMiss).
        case unknownField, nearMiss, wrongType, missingField, notAllowed, outOfRange
    }
    public let kind: Kind
    public let path: String
    public let message: String
    /// The byte offset of the key (or, for a missing field, of the end of its object) in the bytes walked.
    public var offset: Int

    public init(kind: Kind, path: String, message: String, offset: Int) {
        self.kind = kind
        self.path = path
        self.message = message
        self.offset = offset
    }

    /// A page repeats a mistake in every item (a CMS template's typo): a floor's first findings are listed,
    /// the rest counted in one line, so the output stays readable whatever the floor's size.
    public static let shownPerFloor = 20
}

/// Checks a floor object against its floor type's FloorSchema, reading the floor's bytes where the page has
/// them: no DOM, no copy; a string or a key becomes a Swift String only for a message or an enum. The checks
/// are FloorWalk's: the page scanner runs them on its own walk of each floor (one pass for scanning,
/// signing and checking); `validate` runs them over a floor alone. Recursion follows the schema (deeper
/// values are walked without it: FloorWalk.deepValue), so a page cannot deepen the stack. Cost: one pass
/// over the floor's bytes, a property lookup (a few byte compares) per key; nothing is allocated for a
/// floor that conforms (beyond the path buffer of a standalone call). Pure; safe on any thread.
public enum SchemaValidator {
    /// The findings for the floor object in `bytes` (exactly the floor's value) of floor type `typeName`.
    /// Precondition: `bytes` passed the page scanner (SchemaCheck wraps a sample in a page to make sure);
    /// bytes that are not JSON give the findings up to where they stop being JSON.
    public static func validate(_ bytes: UnsafeRawBufferPointer, against schema: FloorSchema, typeName: String)
        -> [SchemaFinding]
    {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return [] }
        JSONWalkLog.record(base, count: bytes.count, "SchemaValidator.validate")
        var walk = FloorWalk(JSONCursor(base, count: bytes.count, skippingBOM: false))
        walk.typeName = typeName
        walk.cursor.skipWhitespace()
        guard walk.cursor.pos < bytes.count else { return [] }
        _ = try? walk.value(schema)
        return walk.findings
    }
}

/// The schema checks of one walk (FloorWalk), value by value as the walk reads them.
extension FloorWalk {
    /// Which properties of an object were present, for `required`: a bit each up to 64 (no allocation, no
    /// reference counting per object: this runs for every item of a floor), an array past that; and the
    /// unknown keys already reported.
    struct ObjectCheck {
        var seenBits: UInt64 = 0
        /// The property after the last member's: where the next key is looked for first.
        var expected = 0
        var seenMore: [Bool]?
        var unknownSeen: Set<String>?
    }

    /// An object's `schema` for the value of member `key` (nil: anything), noting the property as present or
    /// the key as unknown. Precondition: `key` is on `path`.
    mutating func memberSchema(_ key: JSONStringSpan, of schema: FloorSchema, _ seen: inout ObjectCheck) -> FloorSchema?
    {
        if let index = memberIndex(key, of: schema, &seen) { return schema.propertySchemas[index] }
        if case .schema(let other) = schema.additional { return other }
        return nil
    }

    /// The index of the property `key` names in `schema`, noted as present; nil for another key, which is
    /// then checked against "additionalProperties" (and noted as unknown when they are forbidden).
    /// Precondition: `key` is on `path`. Inlined in the walk's loops: a key that names one of the first 64
    /// properties (nearly all) costs a lookup and two stores; anything else goes to `noteMember`.
    @inline(__always)
    mutating func memberIndex(_ key: JSONStringSpan, of schema: FloorSchema, _ seen: inout ObjectCheck) -> Int? {
        let index =
            key.escaped
            ? Self.escapedPropertyIndex(cursor.text(key), of: schema)
            : schema.property(key, in: cursor, expected: seen.expected)
        if let index, index < 64 {
            seen.expected = index + 1
            seen.seenBits |= 1 << UInt64(index)
            return index
        }
        return noteMember(index, key, of: schema, &seen)
    }

    @inline(never)
    static func escapedPropertyIndex(_ name: String, of schema: FloorSchema) -> Int? {
        schema.properties.firstIndex { $0.name == name }
    }

    /// `memberIndex` for a property past the 64th (`index`) or a key that names none (nil).
    @inline(never)
    mutating func noteMember(_ index: Int?, _ key: JSONStringSpan, of schema: FloorSchema, _ seen: inout ObjectCheck)
        -> Int?
    {
        if let index {
            seen.expected = index + 1
            if seen.seenMore == nil { seen.seenMore = [Bool](repeating: false, count: schema.properties.count) }
            seen.seenMore![index] = true
            return index
        }
        if case .forbidden = schema.additional {
            let name = cursor.text(key)
            // A repeated unknown key is one finding (the scanner reports the repetition).
            if seen.unknownSeen == nil { seen.unknownSeen = [] }
            if seen.unknownSeen!.insert(name).inserted { unknown(name, among: schema) }
        }
        return nil
    }

    /// After an object's members: its required properties that were not there.
    mutating func checkRequired(_ schema: FloorSchema, _ seen: ObjectCheck) {
        if let bits = schema.requiredBits, bits & ~seen.seenBits == 0 { return }
        for name in schema.required {
            let index = schema.properties.firstIndex { $0.name == name }
            if let index, index < 64 ? seen.seenBits & (1 << UInt64(index)) != 0 : seen.seenMore?[index] == true {
                continue
            }
            let expected = index.map { " (\(schema.properties[$0].schema.kinds.phrase))" } ?? ""
            // Named by the missing field's own path, as a decoder names it ("items[0].img").
            note(.missingField, "missing required field '\(name)'\(expected) of \(typeName)", field: name)
        }
    }

    /// After an array's `count` elements: fewer than its "minItems".
    mutating func checkCount(_ count: Int, against schema: FloorSchema?) {
        guard let minItems = schema?.minItems, count < minItems, schema!.kinds.contains(.array) else { return }
        note(
            .outOfRange,
            "\(typeName) expects at least \(minItems) item\(minItems == 1 ? "" : "s") here, found \(count == 0 ? "none" : "\(count)")"
        )
    }

    /// An array's element schema, when it constrains anything.
    static func elementSchema(_ schema: FloorSchema) -> FloorSchema? {
        guard let items = schema.items, !(items.kinds == .any && items.isUnconstrained) else { return nil }
        return items
    }

    mutating func wrongKind(_ found: FloorSchema.Kinds, for schema: FloorSchema) {
        note(.wrongType, "\(typeName) expects \(schema.kinds.phrase) here, found \(found.phrase)")
    }

    /// The string `span` (its text decoded here when it has escapes).
    mutating func check(string span: JSONStringSpan, against schema: FloorSchema) {
        guard span.escaped else { return check(text: cursor.bytes(span.start, span.end), against: schema) }
        var decoded: [UInt8] = []
        JSONStringContent.decode(cursor.bytes(span.start, span.end), into: &decoded)
        decoded.withUnsafeBytes { check(text: $0, against: schema) }
    }

    /// A string whose text (escapes resolved, UTF-8 checked by the cursor) is `utf8`: checked where it lies,
    /// no String made unless a finding or an enum needs one.
    mutating func check(text utf8: UnsafeRawBufferPointer, against schema: FloorSchema) {
        guard schema.kinds.contains(.string) else { return wrongKind(.string, for: schema) }
        if schema.minLength != nil || schema.pattern != nil, let broken = Self.brokenRule(utf8, schema) {
            let found = FloorSchema.quoted(String(decoding: utf8, as: UTF8.self))
            switch broken {
            case .minLength(let minLength):
                note(
                    .outOfRange,
                    "\(typeName) expects at least \(minLength) character\(minLength == 1 ? "" : "s") here, found \(found)"
                )
            case .pattern(let pattern):
                note(.notAllowed, "\(typeName) expects text matching \(pattern.text) here, found \(found)")
            }
        }
        if let allowed = schema.allowed {
            let value = FloorSchema.quoted(String(decoding: utf8, as: UTF8.self))
            if !allowed.contains(value) {
                note(.notAllowed, "\(typeName) allows only \(allowed.joined(separator: ", ")) here, found \(value)")
            }
        }
    }

    /// A string's rule that text breaks, minLength before pattern.
    enum StringRule {
        case minLength(Int)
        case pattern(FloorSchema.Pattern)
    }

    static func brokenRule(_ utf8: UnsafeRawBufferPointer, _ schema: FloorSchema) -> StringRule? {
        // A scalar is one to four bytes: text of at least four bytes a character asked for is long enough
        // without counting.
        if let minLength = schema.minLength, utf8.count < minLength * 4, CharacterClass.scalarCount(utf8) < minLength {
            return .minLength(minLength)
        }
        // Chained, not bound: the bound pattern was retained and released for every text it matched.
        if schema.pattern?.matches(utf8) == false { return .pattern(schema.pattern!) }
        return nil
    }

    /// `true`, `false` or `null` from `start` to `pos`.
    mutating func check(literal start: Int, _ found: FloorSchema.Kinds, against schema: FloorSchema) {
        guard schema.kinds.contains(found) else { return wrongKind(found, for: schema) }
        let literal = cursor.text(start, cursor.pos)
        if let allowed = schema.allowed, !allowed.contains(literal) {
            note(.notAllowed, "\(typeName) allows only \(allowed.joined(separator: ", ")) here, found \(literal)")
        }
    }

    /// The number from `start` to `pos`; `integer`: written without fraction or exponent.
    mutating func check(number start: Int, integer: Bool, against schema: FloorSchema) {
        // Most numbers only need to be numbers: read the value only when the schema asks about it.
        guard !schema.kinds.contains(.number) || schema.allowed != nil || schema.minimum != nil || schema.maximum != nil
        else { return }
        let end = cursor.pos
        let value = JSONNumberValue.of(cursor.bytes(start, end))
        let integral = integer || (value.isFinite && value.rounded() == value)
        guard schema.kinds.contains(integral ? .integer : .number) else {
            let found = integral ? "an integer" : "a number with a fraction"
            note(
                .wrongType,
                "\(typeName) expects \(schema.kinds.phrase) here, found \(found) (\(cursor.text(start, end)))")
            return
        }
        if let allowed = schema.allowed, !allowed.contains(FloorSchema.numberText(value)) {
            note(
                .notAllowed,
                "\(typeName) allows only \(allowed.joined(separator: ", ")) here, found \(cursor.text(start, end))")
        } else if let minimum = schema.minimum, value < minimum {
            note(
                .outOfRange,
                "\(typeName) expects at least \(FloorSchema.numberText(minimum)) here, found \(cursor.text(start, end))"
            )
        } else if let maximum = schema.maximum, value > maximum {
            note(
                .outOfRange,
                "\(typeName) expects at most \(FloorSchema.numberText(maximum)) here, found \(cursor.text(start, end))")
        }
    }

    mutating func unknown(_ name: String, among schema: FloorSchema) {
        let names = schema.properties.map(\.name)
        if let meant = Suggestion.nearMiss(name, among: names) {
            note(.nearMiss, "unknown field of \(typeName); did you mean '\(meant)'?")
            return
        }
        let hint = names.isEmpty ? "; it has no fields here" : " (its fields here: \(names.joined(separator: ", ")))"
        note(.unknownField, "unknown field of \(typeName)\(hint)")
    }

    mutating func note(_ kind: SchemaFinding.Kind, _ message: String, field: String? = nil) {
        var out = ""
        for part in path.parts {
            switch part {
            case .key(let key):
                if !out.isEmpty { out += "." }
                out += cursor.text(key)
            case .index(let i): out += "[\(i)]"
            }
        }
        if let field { out += out.isEmpty ? field : "." + field }
        // At the key a finding is about; a missing field at the end of the object that lacks it.
        var offset = max(0, cursor.pos - 1)
        if field == nil, case .key(let key)? = path.last { offset = key.start - 1 }
        findings.append(SchemaFinding(kind: kind, path: out, message: message, offset: offset))
    }
}
