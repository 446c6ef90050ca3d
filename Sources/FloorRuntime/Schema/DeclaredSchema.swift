/// A floor type's schema as the registry keeps it (ABI 1.3 `schema_json`): the plugin's document, for the
/// page schema and conform, and the floor object's schema with the common fields added, parsed once at
/// registration, for checking every floor of the type. Immutable; shared by every floor of the type.
public struct DeclaredSchema: Sendable {
    /// The plugin's schema as it declared it (its own fields only).
    public let document: SchemaValue
    /// The floor object as the host checks it (CommonFloorFields.floorObject with `checking`).
    public let floorObject: FloorSchema

    /// Parses `text`, or says why it cannot be used (naming the JSON Pointer of the bad keyword).
    public static func parse(_ text: String) -> Result<DeclaredSchema, FloorSchema.ParseError> {
        do throws(FloorSchema.ParseError) {
            let document: SchemaValue
            do {
                document = try SchemaValue.parse(text, maxDepth: 2 * FloorSchema.maxDepth + 2)
            } catch {
                throw FloorSchema.ParseError(pointer: "", reason: "not JSON (\(error))")
            }
            // The plugin's own document must be a valid schema in the subset, its root an object schema.
            let own = try FloorSchema.parse(document, pointer: "", depth: 0)
            guard own.kinds.contains(.object), case .object = document else {
                throw FloorSchema.ParseError(
                    pointer: "", reason: "the root must describe the floor object (\"type\": \"object\")")
            }
            let checked = try FloorSchema.parse(
                CommonFloorFields.floorObject(document, checking: true), pointer: "", depth: 0)
            return .success(DeclaredSchema(document: document, floorObject: checked))
        } catch {
            return .failure(error)
        }
    }
}
