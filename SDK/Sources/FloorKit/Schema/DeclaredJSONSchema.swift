extension JSONSchema {
    /// The schema a `Declared` type's declaration states: its fields in the order read, required unless
    /// read into an optional (whose value may then also be null), no other fields; each rule as the keyword
    /// that says the same (TextRule, NumericText, ranges, `minItems`).
    public static func declared<Value: Declared>(_ type: Value.Type) -> JSONSchema {
        JSONSchema(declared: DeclaredDecoding.declaration(of: type))
    }

    init(declared node: DeclaredNode) {
        let names: [(DeclaredNode.Kinds, String)] = [
            (.object, "object"), (.array, "array"), (.string, "string"), (.number, "number"),
            (.integer, "integer"), (.boolean, "boolean"), (.null, "null"),
        ]
        self.init(
            types: names.filter { node.kinds.contains($0.0) }.map(\.1),
            description: node.about.utf8CodeUnitCount == 0 ? nil : node.about.text,
            properties: node.fields.map { ($0.name.text, JSONSchema(declared: $0.node)) },
            required: node.fields.filter(\.required).map(\.name.text),
            additionalProperties: node.kinds.contains(.object) ? false : nil,
            items: node.element.map(JSONSchema.init(declared:)), minimum: node.minimum, maximum: node.maximum,
            defaultValue: node.defaultValue, minItems: node.minItems)
        switch node.text {
        case .any: break
        case .nonEmpty: minLength = 1
        case .notBlank: pattern = "[^ \t\u{A0}\u{1680}\u{2000}-\u{200A}\u{202F}\u{205F}\u{3000}]"
        case .numeric: pattern = NumericText.pattern
        }
    }
}
