/// A JSON Schema (draft 2020-12) in the subset floor_abi.h describes for `schema_json`: what a floor type
/// tells the host about its floor object's fields. Usually derived from the model's `Decodable` conformance
/// (`JSONSchema.derived(from:)`, the default of `FloorModel.schema`) and refined by `FloorModel.schemaNotes`;
/// a type with a hand-written decoder the derivation cannot see through (a value that is text or a number)
/// conforms to `JSONSchemaDescribed` instead.
public struct JSONSchema: Sendable, Equatable {
    /// JSON type names: "object", "array", "string", "number", "integer", "boolean", "null". Empty: any.
    public var types: [String]
    public var description: String?
    /// Object fields, in declaration order.
    public var properties: [(name: String, schema: JSONSchema)]
    public var required: [String]
    /// False: fields not listed in `properties` are unknown (the host reports them). Nil: not said.
    public var additionalProperties: Bool?
    public var items: Box?
    /// Allowed values, as JSON text ("\"red\"", "1", "true").
    public var enumValues: [String]?
    public var minimum: Double?
    public var maximum: Double?
    /// Arrays: the fewest elements.
    public var minItems: Int?
    /// Strings: the fewest characters.
    public var minLength: Int?
    /// Strings: a regular expression (ECMA-262) the text must match somewhere.
    public var pattern: String?
    /// A default value, as JSON text.
    public var defaultValue: String?

    /// Arrays' element schema (a class, so that the struct can hold itself).
    public final class Box: Sendable, Equatable {
        public let schema: JSONSchema
        public init(_ schema: JSONSchema) { self.schema = schema }
        public static func == (a: Box, b: Box) -> Bool { a.schema == b.schema }
    }

    public init(
        types: [String] = [], description: String? = nil, properties: [(name: String, schema: JSONSchema)] = [],
        required: [String] = [], additionalProperties: Bool? = nil, items: JSONSchema? = nil,
        enumValues: [String]? = nil, minimum: Double? = nil, maximum: Double? = nil, defaultValue: String? = nil,
        minItems: Int? = nil, minLength: Int? = nil, pattern: String? = nil
    ) {
        self.types = types
        self.description = description
        self.properties = properties
        self.required = required
        self.additionalProperties = additionalProperties
        self.items = items.map(Box.init)
        self.enumValues = enumValues
        self.minimum = minimum
        self.maximum = maximum
        self.defaultValue = defaultValue
        self.minItems = minItems
        self.minLength = minLength
        self.pattern = pattern
    }

    public static func == (a: JSONSchema, b: JSONSchema) -> Bool {
        a.types == b.types && a.description == b.description && a.required == b.required
            && a.additionalProperties == b.additionalProperties && a.items == b.items && a.enumValues == b.enumValues
            && a.minimum == b.minimum && a.maximum == b.maximum && a.defaultValue == b.defaultValue
            && a.minItems == b.minItems && a.minLength == b.minLength && a.pattern == b.pattern
            && a.properties.count == b.properties.count
            && zip(a.properties, b.properties).allSatisfy { $0.name == $1.name && $0.schema == $1.schema }
    }

    public static let string = JSONSchema(types: ["string"])
    public static let number = JSONSchema(types: ["number"])
    public static let integer = JSONSchema(types: ["integer"])
    public static let boolean = JSONSchema(types: ["boolean"])

    /// The schema of `field` ("items" or a path through arrays and objects: "items[].title"), if present.
    public subscript(path field: String) -> JSONSchema? {
        get { resolve(Self.steps(field)[...]) }
    }

    /// Changes the schema at `field` with `change`; returns false when the path names no declared field.
    @discardableResult
    public mutating func update(_ field: String, _ change: (inout JSONSchema) -> Void) -> Bool {
        update(Self.steps(field)[...], change)
    }

    private static func steps(_ path: String) -> [String] {
        path.split(separator: ".").flatMap { part -> [String] in
            part.hasSuffix("[]") ? [String(part.dropLast(2)), "[]"] : [String(part)]
        }
    }

    private func resolve(_ steps: ArraySlice<String>) -> JSONSchema? {
        guard let step = steps.first else { return self }
        if step == "[]" { return items?.schema.resolve(steps.dropFirst()) }
        return properties.first { $0.name == step }?.schema.resolve(steps.dropFirst())
    }

    private mutating func update(_ steps: ArraySlice<String>, _ change: (inout JSONSchema) -> Void) -> Bool {
        guard let step = steps.first else {
            change(&self)
            return true
        }
        if step == "[]" {
            guard var element = items?.schema else { return false }
            let done = element.update(steps.dropFirst(), change)
            items = Box(element)
            return done
        }
        guard let i = properties.firstIndex(where: { $0.name == step }) else { return false }
        return properties[i].schema.update(steps.dropFirst(), change)
    }

    /// The schema as JSON text, on one line, members in a fixed order (what `schema_json` carries).
    public var json: String {
        var text = ""
        write(to: &text)
        return text
    }

    /// Appends `json` to `text`. One buffer for the whole schema, not a string for every member, list and
    /// level joined into the next: each plugin writes its floor types' schemas when it loads, and the joins
    /// were 0.92 M instructions of every start with the four shipped plugins (BENCHMARKS.md, "A process's
    /// start: ArgumentParser and the plugins' load").
    private func write(to text: inout String) {
        var opened = false
        func member(_ name: String) {
            text += opened ? ",\"" : "{\""
            opened = true
            text += name
            text += "\":"
        }
        func list(_ values: [String], quoting: Bool) {
            text += "["
            for (i, value) in values.enumerated() {
                if i > 0 { text += "," }
                text += quoting ? Self.quoted(value) : value
            }
            text += "]"
        }
        if types.count == 1 {
            member("type")
            text += Self.quoted(types[0])
        }
        if types.count > 1 {
            member("type")
            list(types, quoting: true)
        }
        if let description {
            member("description")
            text += Self.quoted(description)
        }
        if !properties.isEmpty {
            member("properties")
            for (i, property) in properties.enumerated() {
                text += i > 0 ? "," : "{"
                text += Self.quoted(property.name)
                text += ":"
                property.schema.write(to: &text)
            }
            text += "}"
        }
        if !required.isEmpty {
            member("required")
            list(required, quoting: true)
        }
        if let additionalProperties {
            member("additionalProperties")
            text += additionalProperties ? "true" : "false"
        }
        if let items {
            member("items")
            items.schema.write(to: &text)
        }
        if let enumValues {
            member("enum")
            list(enumValues, quoting: false)
        }
        if let minimum {
            member("minimum")
            text += Self.number(minimum)
        }
        if let maximum {
            member("maximum")
            text += Self.number(maximum)
        }
        if let minItems {
            member("minItems")
            text += String(minItems)
        }
        if let minLength {
            member("minLength")
            text += String(minLength)
        }
        if let pattern {
            member("pattern")
            text += Self.quoted(pattern)
        }
        if let defaultValue {
            member("default")
            text += defaultValue
        }
        text += opened ? "}" : "{}"
    }

    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// A JSON string literal. Text with nothing to escape (every name and most descriptions) is quoted as it
    /// is: each plugin quotes its whole schema when it loads, and the loop below cost 0.95 M instructions of
    /// the host's start for the four shipped plugins (BENCHMARKS.md, "A process's start, cheaper").
    public static func quoted(_ text: String) -> String {
        var text = text
        let plain = text.withUTF8 { bytes in
            !bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        }
        if plain { return "\"" + text + "\"" }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// A Decodable type whose JSON shape the derivation cannot see through (its `init(from:)` tries one type,
/// then another): it states its schema itself.
public protocol JSONSchemaDescribed {
    static var jsonSchema: JSONSchema { get }
}

extension JSONSchema {
    /// The schema `type`'s `init(from:)` implies (see SchemaProbe), refined by `notes` (SchemaNote, keyed by
    /// field path). A note whose path names no derived field is left out here; the plugin logs a warning
    /// naming it when it registers (FloorKind), so a typo in a note does not pass silently.
    public static func derived<T: Decodable>(from type: T.Type, notes: [String: SchemaNote] = [:]) -> JSONSchema {
        var schema = SchemaProbe.schema(of: type)
        for (path, note) in notes.sorted(by: { $0.key < $1.key }) {
            guard schema.update(path, note.apply) else { continue }
            if let required = note.required {
                let parent = path.contains(".") ? String(path[..<path.lastIndex(of: ".")!]) : ""
                let name = String(path.split(separator: ".").last!)
                func set(_ object: inout JSONSchema) {
                    object.required.removeAll { $0 == name }
                    if required { object.required.append(name) }
                }
                if parent.isEmpty { set(&schema) } else { schema.update(parent, set) }
            }
        }
        return schema
    }
}
