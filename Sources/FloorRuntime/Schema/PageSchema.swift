import FloorCore

/// The JSON Schema (draft 2020-12) of a whole page for the floor types `registry` holds, as
/// `floorhost schema` prints it: the page's fields; each floor's common fields (`type`/`pattern`, `id`,
/// `header`, `margin`); and each floor type's object, selected by its `type` (or, without one, its
/// `pattern`). An editor that reads JSON Schema completes and checks a page with it. A floor type whose
/// plugin declares no schema (built before ABI 1.3) or an unusable one accepts any fields. Pure.
///
/// Unknown fields: a CMS page carries its own metadata (a page `id`, versions, timestamps, tracking fields),
/// which floorhost ignores with a warning, so by default the schema allows fields it does not name;
/// `strict` forbids them (`floorhost schema --strict`), for editors that want every unknown key underlined
/// (ARCHITECTURE.md, "Diagnostics").
public enum PageSchema {
    public static let dialect = "https://json-schema.org/draft/2020-12/schema"

    public static func document(for registry: Registry, strict: Bool = false) -> SchemaValue {
        let document = strictDocument(for: registry)
        return strict ? document : document.allowingUnknownFields()
    }

    private static func strictDocument(for registry: Registry) -> SchemaValue {
        let names = registry.floorTypeNames.filter { registry.floorTypeID(named: $0) != nil }
        var definitions: [(String, SchemaValue)] = []
        var selections: [SchemaValue] = []
        for name in names {
            let type = registry.floorTypes[Int(registry.floorTypeID(named: name)!)]
            let plugin = registry.plugins[type.plugin]
            let key = "floor-" + name
            let pointer: SchemaValue = .object([("$ref", .string("#/$defs/" + FloorSchema.escape(key)))])
            if let declared = type.schema {
                var object = CommonFloorFields.floorObject(declared.document, checking: false)
                if case .object(var members) = object, declared.document["description"] == nil {
                    members.insert(
                        ("description", .string("A '\(name)' floor (plugin \(plugin.id) \(plugin.version)).")), at: 0)
                    object = .object(members)
                }
                definitions.append((key, object))
            } else {
                let why =
                    type.schemaProblem.map { "its schema cannot be used: \($0)" }
                    ?? "its plugin declares no schema (built before plugin ABI 1.3)"
                definitions.append(
                    (
                        key,
                        .object([
                            ("type", .string("object")),
                            (
                                "description",
                                .string(
                                    "A '\(name)' floor (plugin \(plugin.id) \(plugin.version)); any fields: \(why).")
                            ),
                        ])
                    ))
            }
            let byType: SchemaValue = .object([
                ("properties", .object([("type", .object([("const", .string(name))]))])),
                ("required", .array([.string("type")])),
            ])
            let byPattern: SchemaValue = .object([
                ("not", .object([("required", .array([.string("type")]))])),
                ("properties", .object([("pattern", .object([("const", .string(name))]))])),
                ("required", .array([.string("pattern")])),
            ])
            selections.append(.object([("if", byType), ("then", pointer)]))
            selections.append(.object([("if", byPattern), ("then", pointer)]))
        }
        let typeNames: SchemaValue = .array(names.map { .string($0) })
        let floor: SchemaValue = .object([
            ("type", .string("object")),
            ("description", .string("A floor: a section of the page, drawn by the plugin that registers its type.")),
            (
                "properties",
                .object([
                    (
                        "type",
                        .object([
                            ("enum", typeNames),
                            ("description", .string("The floor type: which plugin decodes and draws this floor.")),
                        ])
                    ),
                    (
                        "pattern",
                        .object([
                            ("enum", typeNames),
                            ("description", .string("The older CMS name for 'type'; used when 'type' is absent.")),
                        ])
                    ),
                ])
            ),
            (
                "anyOf",
                .array([
                    .object([("required", .array([.string("type")]))]),
                    .object([("required", .array([.string("pattern")]))]),
                ])
            ),
            ("allOf", .array(selections)),
        ])
        return .object([
            ("$schema", .string(dialect)),
            ("title", .string("FloorKit page")),
            (
                "description",
                .string(
                    "A page of floors for floorhost \(Version.host) (plugin ABI \(Version.abi)), with the floor types: \(names.isEmpty ? "none" : names.joined(separator: ", "))."
                )
            ),
            ("type", .string("object")),
            (
                "properties",
                .object([
                    (
                        "$schema",
                        .object([
                            ("type", .string("string")),
                            ("description", .string("Where an editor finds this schema (floorhost schema's output).")),
                        ])
                    ),
                    (
                        "title",
                        .object([
                            ("type", .string("string")),
                            (
                                "description",
                                .string("Shown above the floors by the text preview, the html output and serve.")
                            ),
                        ])
                    ),
                    (
                        "next",
                        .object([
                            ("type", .array([.string("string"), .string("null")])),
                            (
                                "description",
                                .string(
                                    "The next page's path, relative to this file; what load-more fetches. null or absent: no next page."
                                )
                            ),
                        ])
                    ),
                    (
                        "floors",
                        .object([
                            ("type", .string("array")),
                            ("description", .string("The floors, in order, top to bottom.")),
                            ("items", .object([("$ref", .string("#/$defs/floor"))])),
                        ])
                    ),
                ])
            ),
            ("required", .array([.string("floors")])),
            ("additionalProperties", .bool(false)),
            ("$defs", .object([("floor", floor)] + definitions)),
        ])
    }
}
