import FloorRuntime

/// conform's `schema` check: every floor type's declared schema (ABI 1.3 `schema_json`) is one the host can
/// use (valid in the subset floor_abi.h names, its root an object schema, no required field it forbids), and
/// every sample floor validates against it, as the host would check the floor on a page. A floor type
/// without a schema (a plugin built before 1.3, or one that declares none) passes: there is nothing to hold
/// its samples to. Host code only; no plugin call.
package enum SchemaCheck {
    package static func run(_ plugin: PluginUnderTest, _ samples: SampleSet) throws(ConformanceFailure) {
        let registry = plugin.registry
        for index in registry.floorTypes.indices where registry.floorTypes[index].plugin == plugin.plugin {
            let type = registry.floorTypes[index]
            if let problem = type.schemaProblem {
                throw ConformanceFailure("the schema_json of floor type '\(type.name)' cannot be used: \(problem)")
            }
            if let schema = type.schema, let contradiction = unsatisfiable(schema.floorObject, at: "") {
                throw ConformanceFailure("the schema_json of floor type '\(type.name)' \(contradiction)")
            }
        }
        for sample in samples.samples {
            let type = plugin.floorType(sample.floorType)
            guard let schema = type.schema else { continue }
            // The validator reads JSON the page scanner has accepted: so must a sample be.
            let page = Array(#"{"floors":["#.utf8) + sample.bytes + Array("]}".utf8)
            guard let spec = try? PageScanner.scan(page), spec.floors.count == 1 else {
                throw ConformanceFailure(
                    "\(sample.label) is not one JSON object, so it cannot be held to the schema of '\(type.name)'")
            }
            let findings = page.withUnsafeBytes { raw in
                SchemaValidator.validate(
                    UnsafeRawBufferPointer(rebasing: raw[spec.floors[0].bytes]), against: schema.floorObject,
                    typeName: type.name)
            }
            guard findings.isEmpty else {
                let listed = findings.prefix(3).map { $0.path.isEmpty ? $0.message : "\($0.path): \($0.message)" }
                    .joined(separator: "; ")
                throw ConformanceFailure(
                    "\(sample.label) does not match the schema of '\(type.name)': \(listed)\(findings.count > 3 ? "; and \(findings.count - 3) more" : ""); the schema must describe what the plugin decodes"
                )
            }
        }
    }

    /// A required field the same object forbids (not a property, and no additional ones allowed) can never
    /// be satisfied: says where, or nil.
    package static func unsatisfiable(_ schema: FloorSchema, at path: String) -> String? {
        if case .forbidden = schema.additional {
            for name in schema.required where !schema.properties.contains(where: { $0.name == name }) {
                return
                    "requires field '\(name)'\(path.isEmpty ? "" : " in \(path)") but does not list it in \"properties\" and allows no other field, so no floor can match"
            }
        }
        for (name, child) in schema.properties {
            if let found = unsatisfiable(child, at: path.isEmpty ? name : "\(path).\(name)") { return found }
        }
        if let items = schema.items { return unsatisfiable(items, at: path + "[]") }
        return nil
    }
}
