import Foundation

/// The `validate` check, in two halves.
/// - A floor type's validator (ABI 1.1, optional; the seed's TemplateValidationProtocol) accepts the
///   plugin's own samples, since a sample must be a floor a page would show. A type without a validator
///   passes this half.
/// - A copy of each sample broken per the floor type's declared schema (ABI 1.3 `schema_json`) is refused
///   with a path: for every field the schema's root requires (other than type, pattern and id) and the
///   sample has, one copy without it and one with it given a value of a type the schema does not allow.
///   The decoder must refuse each (NULL, report->error at that field or inside it), or the validator must
///   (false, with such a path): a schema that requires what the plugin does not is a schema that lies to
///   the editors reading it. The host's schema check of a page only warns and still decodes the floor, so
///   it is the plugin's refusal that shows the field really is required. A type without a schema passes
///   this half.
extension BehaviourChecks {
    static func validateSamples(_ plugin: PluginUnderTest, _ samples: SampleSet) throws(ConformanceFailure) {
        for sample in samples.samples {
            let type = plugin.floorType(sample.floorType)
            guard let validate = type.validate else { continue }
            try plugin.withModel(sample) { model, _ throws(ConformanceFailure) in
                plugin.step("\(validate.name) on \(sample.label)")
                guard let verdict = plugin.validate(sample.floorType, model), !verdict.valid else { return }
                let why = verdict.errors.map { $0.path.isEmpty ? $0.message : "\($0.path): \($0.message)" }.joined(separator: "; ")
                throw ConformanceFailure("\(validate.name) rejected \(sample.label): \(why.isEmpty ? "no reason given" : why); a sample must be a floor the page would show")
            }
        }
        for sample in samples.samples {
            for broken in brokenPerSchema(sample, plugin.floorType(sample.floorType)) {
                try expectRefusal(plugin, sample, broken)
            }
        }
    }

    /// A copy of a sample that its floor type's schema says no page may carry.
    struct SchemaBrokenCopy {
        /// The root field broken: "title".
        let field: String
        /// "with required field 'title' removed", "with required field 'title' given true".
        let what: String
        let bytes: [UInt8]
    }

    /// The copies of `sample` broken per `type`'s schema: each required root field the sample has, removed,
    /// then given a value of a kind the schema does not allow (when there is one).
    static func brokenPerSchema(_ sample: SampleSet.Sample, _ type: Registry.FloorType) -> [SchemaBrokenCopy] {
        guard let schema = type.schema?.floorObject,
              let object = (try? JSONSerialization.jsonObject(with: Data(sample.bytes))) as? [String: Any] else { return [] }
        var copies: [SchemaBrokenCopy] = []
        func copy(_ field: String, _ what: String, _ object: [String: Any]) {
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
            copies.append(SchemaBrokenCopy(field: field, what: what, bytes: [UInt8](data)))
        }
        for field in schema.required where !["type", "pattern", "id"].contains(field) && object[field] != nil {
            var removed = object
            removed[field] = nil
            copy(field, "with required field '\(field)' removed", removed)
            let kinds = schema.properties.first { $0.name == field }?.schema.kinds ?? .any
            let wrong: (Any, String)? =
                !kinds.contains(.string) ? ("wrongly typed", "a string")
                : !kinds.contains(.number) && !kinds.contains(.integer) ? (12345, "a number")
                : !kinds.contains(.boolean) ? (true, "true")
                : !kinds.contains(.array) ? ([] as [Any], "an array")
                : !kinds.contains(.object) ? ([:] as [String: Any], "an object") : nil
            if let (value, said) = wrong {
                var retyped = object
                retyped[field] = value
                copy(field, "with required field '\(field)' given \(said)", retyped)
            }
        }
        return copies
    }

    /// The decoder refuses `broken` with a path at or inside its broken field, or, when it decodes it, the
    /// validator does.
    static func expectRefusal(_ plugin: PluginUnderTest, _ sample: SampleSet.Sample, _ broken: SchemaBrokenCopy) throws(ConformanceFailure) {
        let type = plugin.floorType(sample.floorType)
        func atField(_ path: String) -> Bool {
            path == broken.field || path.hasPrefix(broken.field + ".") || path.hasPrefix(broken.field + "[")
        }
        func listed(_ errors: [(path: String, message: String)]) -> String {
            errors.prefix(3).map { $0.path.isEmpty ? "(no path): \($0.message)" : "\($0.path): \($0.message)" }.joined(separator: "; ")
        }
        let copy = "\(sample.label) \(broken.what)"
        plugin.step("\(type.decode.name) on \(copy)")
        let decoded = plugin.decode(sample.floorType, broken.bytes)
        guard let model = decoded.model else {
            if decoded.errors.contains(where: { atField($0.path) }) { return }
            throw ConformanceFailure("\(type.decode.name) refused \(copy), but reported \(decoded.errors.isEmpty ? "no reason" : listed(decoded.errors)); report->error with the path '\(broken.field)' (or one inside it), so a page's editor can find the field")
        }
        defer { plugin.destroy(sample.floorType, model) }
        if let validate = type.validate {
            plugin.step("\(validate.name) on \(copy)")
            if let verdict = plugin.validate(sample.floorType, model), !verdict.valid {
                if verdict.errors.contains(where: { atField($0.path) }) { return }
                throw ConformanceFailure("\(validate.name) refused \(copy), but reported \(verdict.errors.isEmpty ? "no reason" : listed(verdict.errors)); report the path '\(broken.field)' (or one inside it)")
            }
        }
        throw ConformanceFailure("\(type.decode.name) accepted \(copy) (\(preview(broken.bytes))), which the schema_json of '\(type.name)' forbids; refuse it in the decoder with the path '\(broken.field)', or, if the floor can do without it, take '\(broken.field)' out of the schema's \"required\" or widen its \"type\"")
    }
}
