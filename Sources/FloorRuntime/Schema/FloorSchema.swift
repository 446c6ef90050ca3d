import CPattern
import FloorCore
import FoundationEssentials

/// A floor type's JSON Schema as the host checks it: the subset of draft 2020-12 that floor_abi.h names
/// (type, properties, required, additionalProperties, items, enum, minimum, maximum, minItems, minLength,
/// pattern, description). Parsed
/// once, when the floor type registers (ABI 1.3 `schema_json`); immutable afterwards, so it is shared by
/// every floor of the type and safe to read from any thread. Keywords outside the subset are carried into
/// `floorhost schema` unchanged but not checked.
public final class FloorSchema: Sendable {
    /// JSON value kinds, as "type" names them. `integer` is a number with no fractional part.
    public struct Kinds: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let object = Kinds(rawValue: 1), array = Kinds(rawValue: 2), string = Kinds(rawValue: 4)
        public static let number = Kinds(rawValue: 8), integer = Kinds(rawValue: 16), boolean = Kinds(rawValue: 32)
        public static let null = Kinds(rawValue: 64)
        /// No "type" keyword: anything.
        public static let any = Kinds(rawValue: 127)

        package static let names: [(String, Kinds)] = [
            ("object", .object), ("array", .array), ("string", .string), ("number", .number),
            ("integer", .integer), ("boolean", .boolean), ("null", .null),
        ]

        /// "a string", "an integer or a string": what a message says was expected.
        package var phrase: String {
            let words = Self.names.filter { contains($0.1) && !($0.1 == .integer && contains(.number)) }.map {
                name, _ in
                (name == "object" || name == "array" || name == "integer" ? "an " : name == "null" ? "" : "a ") + name
            }
            return words.count <= 1
                ? words.first ?? "anything" : words.dropLast().joined(separator: ", ") + " or " + words.last!
        }
    }

    /// What "additionalProperties" allows.
    public enum Additional: Sendable {
        case any
        case forbidden
        case schema(FloorSchema)
    }

    public let kinds: Kinds
    /// Declared properties in the order the schema lists them ("properties" keeps the plugin's order when
    /// the schema text does; names are compared by their UTF-8 bytes).
    public let properties: [(name: String, schema: FloorSchema)]
    /// `properties` as a walk matches keys against them, each with its key hash (ContentHash of the name, as
    /// JSONCursor.keyHash gives a key: a walk that matched a key to a property takes its hash from here rather
    /// than hashing the key's bytes again) and its schema, borrowed from `propertySchemas`.
    package let propertyKeys: PropertyKeys
    /// `properties`' schemas alone, by the same index: what the validator reads per key.
    package let propertySchemas: ContiguousArray<FloorSchema>
    public let required: [String]
    /// `required` as bits of property indexes, when every required name is a declared property with an
    /// index below 64 (else nil): the validator's per-object test is then one mask.
    package let requiredBits: UInt64?
    public let additional: Additional
    public let items: FloorSchema?
    /// "enum": the allowed values, each as canonical JSON text (strings quoted, numbers as written).
    public let allowed: [String]?
    public let minimum: Double?
    public let maximum: Double?
    /// Arrays: the fewest elements.
    public let minItems: Int?
    /// Strings: the fewest characters (Unicode scalars, as JSON Schema counts them).
    public let minLength: Int?
    /// Strings: a regular expression the text must match somewhere (ECMA-262's syntax, as ICU reads it).
    public let pattern: Pattern?
    public let description: String?

    /// A "pattern" and its compiled form: ICU's regular expressions through a C call over the UTF-8 as it
    /// is (CPattern), a few hundred nanoseconds a match; Foundation's NSRegularExpression cost microseconds
    /// (19 % of rendering the 8 MB benchmark page, whose every price has a pattern).
    public final class Pattern: @unchecked Sendable {
        public let text: String
        /// ICU's compiled pattern, for a pattern no hand matcher takes (compiling one costs about a million
        /// instructions, so the others are never compiled). Matching takes the compiled pattern's own lock
        /// (floor_pattern.h), so any thread may match.
        private let compiled: OpaquePointer?
        /// The pattern as one character class, matched without ICU (`.notBlank`'s shape).
        private let characterClass: CharacterClass?
        /// FloorKit's number-as-text rule (NumericTextPattern), matched by hand.
        private let numericText: Bool

        /// nil when `text` is not a regular expression ICU reads.
        init?(_ text: String) {
            characterClass = CharacterClass(text)
            numericText = text == NumericTextPattern.text
            if characterClass == nil && !numericText {
                var source = text
                guard
                    let compiled = source.withUTF8({ bytes in
                        bytes.withMemoryRebound(to: CChar.self) {
                            floor_pattern_compile($0.baseAddress, Int64($0.count))
                        }
                    })
                else { return nil }
                self.compiled = compiled
            } else {
                compiled = nil
            }
            self.text = text
        }

        deinit { if let compiled { floor_pattern_free(compiled) } }

        /// Whether the pattern matches somewhere in `string` (JSON Schema's rule: not anchored).
        func matches(_ string: String) -> Bool {
            var string = string
            return string.withUTF8 { matches(UnsafeRawBufferPointer($0)) }
        }

        /// Whether the pattern matches somewhere in the UTF-8 `utf8`.
        func matches(_ utf8: UnsafeRawBufferPointer) -> Bool {
            if let characterClass { return characterClass.matches(utf8) }
            if numericText { return NumericTextPattern.matches(utf8) }
            guard let compiled else { return false }
            return utf8.withMemoryRebound(to: CChar.self) {
                floor_pattern_find(compiled, $0.baseAddress, Int64($0.count)) == 1
            }
        }
    }

    package init(
        kinds: Kinds, properties: [(String, FloorSchema)], required: [String], additional: Additional,
        items: FloorSchema?,
        allowed: [String]?, minimum: Double?, maximum: Double?, description: String?,
        minItems: Int? = nil, minLength: Int? = nil, pattern: Pattern? = nil
    ) {
        self.kinds = kinds
        self.properties = properties.map { (name: $0.0, schema: $0.1) }
        self.propertySchemas = ContiguousArray(properties.map(\.1))
        self.propertyKeys = PropertyKeys(properties.map { Array($0.0.utf8) }, schemas: propertySchemas)
        self.required = required
        let indexes = required.map { name in properties.firstIndex { $0.0 == name } }
        self.requiredBits =
            indexes.allSatisfy({ $0 != nil && $0! < 64 }) ? indexes.reduce(0) { $0 | 1 << UInt64($1!) } : nil
        self.additional = additional
        self.items = items
        self.allowed = allowed
        self.minimum = minimum
        self.maximum = maximum
        self.minItems = minItems
        self.minLength = minLength
        self.pattern = pattern
        self.description = description
    }

    deinit { propertyKeys.deallocate() }

    /// The property named by the key `key` (unescaped) in `cursor`'s bytes, by index into `properties`;
    /// `expected` is tried first (PropertyKeys.index).
    @inline(__always)
    package func property(_ key: JSONStringSpan, in cursor: JSONCursor, expected: Int = 0) -> Int? {
        let start = cursor.raw + key.start
        let count = key.end - key.start
        let head = PropertyKeys.head(of: start, count: count, readable: cursor.count - key.start)
        return propertyKeys.index(of: start, count: count, head: head, expected: expected)
    }

    /// Deepest nesting the host accepts in a schema (a floor's own shape is never this deep).
    package static let maxDepth = 64

    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// Where in the schema, as a JSON Pointer ("/properties/items/type"); "" for the root.
        public let pointer: String
        public let reason: String
        public var description: String { pointer.isEmpty ? reason : "at \(pointer): \(reason)" }
    }

    /// Parses one schema of the subset (DeclaredSchema.parse is the entry point, for a whole floor type's
    /// schema). A keyword of the subset with a value of the wrong shape is an error naming its JSON Pointer.
    package static func parse(_ value: SchemaValue, pointer: String, depth: Int) throws(ParseError) -> FloorSchema {
        func fail(_ reason: String, _ key: String = "") -> ParseError {
            ParseError(pointer: key.isEmpty ? pointer : pointer + "/" + key, reason: reason)
        }
        if case .bool(let flag) = value {
            // `true` allows anything; `false` nothing (an empty type set).
            return FloorSchema(
                kinds: flag ? .any : [], properties: [], required: [], additional: .any, items: nil,
                allowed: nil, minimum: nil, maximum: nil, description: nil)
        }
        guard case .object = value else { throw fail("a schema must be an object or a boolean") }
        guard depth < maxDepth else { throw fail("nested deeper than \(maxDepth) levels") }
        var kinds = Kinds.any
        if let type = value["type"] {
            let names: [SchemaValue]
            if case .array(let list) = type { names = list } else { names = [type] }
            kinds = []
            for name in names {
                guard case .string(let name) = name, let kind = Kinds.names.first(where: { $0.0 == name })?.1 else {
                    throw fail(
                        "\"type\" must name object, array, string, number, integer, boolean or null (or list them)",
                        "type")
                }
                kinds.insert(kind)
            }
            guard !kinds.isEmpty else { throw fail("\"type\" lists no type", "type") }
            if kinds.contains(.number) { kinds.insert(.integer) }
        }
        var properties: [(String, FloorSchema)] = []
        if let raw = value["properties"] {
            guard case .object(let members) = raw else { throw fail("\"properties\" must be an object", "properties") }
            for (name, member) in members {
                let schema = try parse(member, pointer: pointer + "/properties/" + escape(name), depth: depth + 1)
                if let i = properties.firstIndex(where: { $0.0 == name }) {
                    properties[i].1 = schema
                } else {
                    properties.append((name, schema))
                }
            }
        }
        var required: [String] = []
        if let raw = value["required"] {
            guard case .array(let names) = raw else {
                throw fail("\"required\" must be an array of strings", "required")
            }
            for name in names {
                guard case .string(let name) = name else {
                    throw fail("\"required\" must be an array of strings", "required")
                }
                required.append(name)
            }
        }
        var additional = Additional.any
        if let raw = value["additionalProperties"] {
            let schema = try parse(raw, pointer: pointer + "/additionalProperties", depth: depth + 1)
            additional =
                schema.kinds.isEmpty
                ? .forbidden : schema.kinds == .any && schema.isUnconstrained ? .any : .schema(schema)
        }
        var items: FloorSchema?
        if let raw = value["items"] { items = try parse(raw, pointer: pointer + "/items", depth: depth + 1) }
        var allowed: [String]?
        if let raw = value["enum"] {
            guard case .array(let values) = raw, !values.isEmpty else {
                throw fail("\"enum\" must be a non-empty array", "enum")
            }
            allowed = try values.map { value throws(ParseError) in
                guard let text = canonical(value) else {
                    throw fail("\"enum\" may list only strings, numbers, booleans and null", "enum")
                }
                return text
            }
        }
        func bound(_ key: String) throws(ParseError) -> Double? {
            guard let raw = value[key] else { return nil }
            guard case .number(let number, _) = raw else { throw fail("\"\(key)\" must be a number", key) }
            return number
        }
        func count(_ key: String) throws(ParseError) -> Int? {
            guard let raw = value[key] else { return nil }
            guard case .number(let number, _) = raw, number >= 0, number.rounded() == number, number < 1e9 else {
                throw fail("\"\(key)\" must be a whole number, 0 or more", key)
            }
            return Int(number)
        }
        var pattern: Pattern?
        if let raw = value["pattern"] {
            guard case .string(let text) = raw, let compiled = Pattern(text) else {
                throw fail("\"pattern\" must be a regular expression", "pattern")
            }
            pattern = compiled
        }
        var description: String?
        if let raw = value["description"] {
            guard case .string(let text) = raw else { throw fail("\"description\" must be a string", "description") }
            description = text
        }
        return FloorSchema(
            kinds: kinds, properties: properties, required: required, additional: additional, items: items,
            allowed: allowed, minimum: try bound("minimum"), maximum: try bound("maximum"),
            description: description, minItems: try count("minItems"), minLength: try count("minLength"),
            pattern: pattern)
    }

    package var isUnconstrained: Bool {
        properties.isEmpty && required.isEmpty && items == nil && allowed == nil && minimum == nil && maximum == nil
            && minItems == nil && minLength == nil && pattern == nil
            && { if case .any = additional { return true } else { return false } }()
    }

    /// A JSON Pointer's escaping of one name. A name with neither `~` nor `/` (every shipped field's) is
    /// returned as it is: each property a schema declares is escaped when it is parsed, at every plugin load,
    /// and the generic `replacing` cost 1.6 M instructions of the empty page's 52.6 M (BENCHMARKS.md, "A
    /// process's start, cheaper").
    package static func escape(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return name }
        var escaped = ""
        for character in name.unicodeScalars {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// The JSON text of an enum value as the validator compares it.
    package static func canonical(_ value: SchemaValue) -> String? {
        switch value {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .string(let text): quoted(text)
        case .number(let number, _): numberText(number)
        default: nil
        }
    }

    /// `text` as a JSON string: quote, backslash and C0 controls escaped, the rest as is (schema output and
    /// conform's mutant floors).
    package static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += PrintfFormat.string("\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Numbers compare by value: 1, 1.0 and 1e0 are the same enum value.
    package static func numberText(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
