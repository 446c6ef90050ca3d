/// What a model adds to its derived schema for one field: a description for people (and editors), and
/// bounds or allowed values the types alone do not say. Written next to the model's fields, keyed by the
/// field's path ("columns", "items", "items[].title"); a plain string literal is a description:
///
///     static let schemaNotes: [String: SchemaNote] = [
///         "columns": SchemaNote("Icons a line.", minimum: 1, maximum: 10, default: "4"),
///         "items[].title": "The label under the icon.",
///     ]
///
/// A note whose path names no field the derivation found is a mistake: the plugin logs a warning naming
/// it when it registers (floorhost prints it, `check` lists it as a note).
public struct SchemaNote: Sendable, ExpressibleByStringLiteral {
    public var description: String?
    public var minimum: Double?
    public var maximum: Double?
    /// Allowed values as JSON text ("\"left\"", "2").
    public var enumValues: [String]?
    /// The value used when the field is absent, as JSON text.
    public var defaultValue: String?
    /// Marks a field the decoder requires although the derivation saw it decoded as optional, or the reverse.
    public var required: Bool?

    public init(
        _ description: String? = nil, minimum: Double? = nil, maximum: Double? = nil, enum enumValues: [String]? = nil,
        default defaultValue: String? = nil, required: Bool? = nil
    ) {
        self.description = description
        self.minimum = minimum
        self.maximum = maximum
        self.enumValues = enumValues
        self.defaultValue = defaultValue
        self.required = required
    }

    public init(stringLiteral description: String) {
        self.init(description)
    }

    func apply(to schema: inout JSONSchema) {
        if let description { schema.description = description }
        if let minimum { schema.minimum = minimum }
        if let maximum { schema.maximum = maximum }
        if let enumValues { schema.enumValues = enumValues }
        if let defaultValue { schema.defaultValue = defaultValue }
    }
}
