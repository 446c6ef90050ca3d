/// The fields every floor object may carry whatever its type, which the host adds to each floor type's
/// schema: `type` (alias `pattern`) and `id`, which the host reads; `header` and `margin`, the common fields
/// of ARCHITECTURE.md's "Pages" (the Swift SDK decodes them for its plugins; a C plugin reads them itself);
/// `layout` and `columns` (ABI 1.5), which the host reads. A plugin's schema lists only its own fields; one
/// that declares one of these names itself keeps its declaration.
/// Defined here once, as schema text, for the page schema (`floorhost schema`) and for checking floors.
public enum CommonFloorFields {
    package static let type = value(
        #"{"type":"string","description":"The floor type: which plugin decodes and draws this floor."}"#)
    package static let pattern = value(
        #"{"type":"string","description":"The older CMS name for 'type'; used when 'type' is absent."}"#)
    package static let id = value(
        #"{"type":["string","integer"],"description":"The floor's id, unique in the page. A next page's floor with the same id extends this floor."}"#
    )
    // null is no header, no margin or the default, as the SDK's declarations (Jump, FloorHeader, FloorMargin) read it.
    package static let header = value(
        #"{"type":["object","null"],"description":"A title row above the floor's content.","properties":{"title":{"type":"string","description":"The title's text."},"sticky":{"type":["boolean","null"],"description":"Pin the title to the top of the screen while the floor is in view.","default":false}},"required":["title"],"additionalProperties":false}"#
    )
    package static let margin = value(
        #"{"type":["object","null"],"description":"Space above and below the floor, in points (spacing rows).","properties":{"top":{"type":["number","null"],"minimum":0,"maximum":10000,"description":"Points above the floor, 0 to 10,000.","default":0},"bottom":{"type":["number","null"],"minimum":0,"maximum":10000,"description":"Points below the floor, 0 to 10,000.","default":0}},"additionalProperties":false}"#
    )

    /// ABI 1.5 (docs/ABI.md, "Collections"): read by the host, which reports a value it cannot use itself
    /// (an error naming the path and what it did), so the schema states no bounds that would say it twice.
    package static let layout = value(
        #"{"type":"string","description":"How the floor's items are placed: \"list\" (full-width rows), \"grid\" (equal columns, left to right) or \"waterfall\" (each item into the shortest column); the floor type's default when absent. A layout the floor type does not support is shown as a list."}"#
    )
    package static let columns = value(
        #"{"type":"number","description":"Columns of a grid or waterfall, 1 to 6 (clamped); the floor type's default when absent."}"#
    )

    /// The floor object's full schema: `plugin` (an object schema of the plugin's own fields) with the
    /// common fields added in front and unknown fields forbidden unless the plugin said otherwise.
    /// `checking`: for the host's own check of a floor, where `type`, `pattern` and `id` are left unchecked
    /// (the page scanner already reports a wrong one) and `id` is not required (a floor without one is
    /// named by its path, with a warning of its own); for the page schema, `id` is required.
    package static func floorObject(_ plugin: SchemaValue, checking: Bool) -> SchemaValue {
        guard case .object(var members) = plugin else { return plugin }
        var declared: [(String, SchemaValue)] = []
        if case .object(let own)? = plugin["properties"] { declared = own }
        let common: [(String, SchemaValue)] = [
            ("type", checking ? .bool(true) : type), ("pattern", checking ? .bool(true) : pattern),
            ("id", checking ? .bool(true) : id), ("header", header), ("margin", margin),
            ("layout", layout), ("columns", columns),
        ]
        let properties = common.filter { name, _ in !declared.contains { $0.0 == name } } + declared
        members.removeAll { $0.0 == "properties" }
        var required: [SchemaValue] = []
        if case .array(let own)? = plugin["required"] { required = own }
        if !checking, !required.contains(.string("id")) { required.insert(.string("id"), at: 0) }
        members.removeAll { $0.0 == "required" || $0.0 == "additionalProperties" }
        members.append(("properties", .object(properties)))
        if !required.isEmpty { members.append(("required", .array(required))) }
        members.append(("additionalProperties", plugin["additionalProperties"] ?? .bool(false)))
        return .object(members)
    }

    private static func value(_ text: String) -> SchemaValue {
        // Literal text above: a parse failure is a bug in this file, found by any test that loads a plugin.
        try! SchemaValue.parse(text)
    }
}
